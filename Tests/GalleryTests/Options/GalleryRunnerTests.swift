import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import Gallery

@Suite struct GalleryRunnerTests {
    /// Components whose loader makes a solid image per entry: green for http URLs (a stand-in for the
    /// network layer), and whose probe says "probe ok".
    func components() -> GalleryComponents {
        var parts = GalleryComponents.live(GalleryOptions())
        parts.loadForPrint = { entry, _ in
            guard case .remote = entry.location else { return .failure(LoadFailure(message: "no")) }
            let pixels = Array((0..<(8 * 8)).map { _ in [UInt8(0), 200, 0, 255] }.joined())
            return .success((Image(width: 8, height: 8, pixels: pixels), ImageDetails(pixelSize: PixelSize(width: 8, height: 8), byteCount: 10)))
        }
        parts.probeReport = { _ in "probe ok" }
        return parts
    }

    @Test func printUsesTheInjectedLoaderAndProbe() throws {
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        try Data("https://e.example/a.png Remote A\n/missing.png\nnot a scheme:x\n".utf8).write(to: list)
        var options = GalleryOptions()
        options.listPath = list.path
        options.printSheet = true
        options.colors = .truecolor
        options.columns = 2
        var out = "", err = ""
        let status = GalleryRunner.run(options, components: components(), stdout: { out += $0 }, stderr: { err += $0 })
        #expect(status == 0)
        #expect(out.contains("\u{1B}[38;2;0;200;0;48;2;0;200;0m▀"))
        #expect(out.contains("Remote A"))
        #expect(out.contains("✗ no"))
        #expect(err.isEmpty)

        var probe = GalleryOptions()
        probe.probe = true
        out = ""
        #expect(GalleryRunner.run(probe, components: components(), stdout: { out += $0 }, stderr: { err += $0 }) == 0)
        #expect(out == "probe ok\n")
    }

    @Test func unreadableAndEmptyListsExitWith1() throws {
        var options = GalleryOptions()
        options.listPath = "/nonexistent/list.txt"
        var err = ""
        #expect(GalleryRunner.run(options, stdout: { _ in }, stderr: { err += $0 }) == 1)
        #expect(err == "sdgallery: cannot read '/nonexistent/list.txt': No such file or directory\n")
        let dir = try Fixtures.temporaryDirectory("gallery-runner")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("bad.txt")
        try Data("ftp://x/y\n# nothing else\n".utf8).write(to: list)
        options.listPath = list.path
        err = ""
        #expect(GalleryRunner.run(options, stdout: { _ in }, stderr: { err += $0 }) == 1)
        #expect(err == "sdgallery: line 1: unsupported scheme 'ftp': ftp://x/y\nsdgallery: no usable entries in the list\n")
    }
}
