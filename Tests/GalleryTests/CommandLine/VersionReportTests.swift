import Testing
@testable import Gallery

@Suite struct VersionReportTests {
    @Test func namesEveryLinkedLibrary() {
        let names = VersionReport.libraries.map(\.name)
        #expect(names == ["libcurl", "libjpeg-turbo", "libpng", "giflib", "libwebp", "libavif", "libheif", "libtiff", "libjxl", "librsvg", "libsixel", "ncurses"])
        for lib in VersionReport.libraries {
            #expect(lib.version.contains { $0.isNumber }, "\(lib.name) has no version number: \(lib.version)")
        }
        #expect(VersionReport.text.hasPrefix("sdgallery \(sdgalleryVersion)\n"))
    }
}
