import ImageCodecs
import TerminalGraphics
import WebImage

/// sdgallery's own version.
public let sdgalleryVersion = "0.1.0"

/// The text of `sdgallery --version`: our version and every C library we run against.
public enum VersionReport {
    /// (library, version) pairs, in the order printed.
    public static var libraries: [(name: String, version: String)] {
        [("libcurl", NetworkLibrary.curlVersion)] + CodecLibraries.versions + [
            ("libsixel", GraphicsLibraries.sixelVersion),
            ("ncurses", TerminalDevice.cursesVersion),
        ]
    }

    /// The full report, one library per line.
    public static var text: String {
        let width = libraries.map(\.name.count).max() ?? 0
        let lines = libraries.map { lib in
            lib.name + String(repeating: " ", count: width - lib.name.count) + "  " + lib.version
        }
        return (["sdgallery \(sdgalleryVersion)"] + lines).joined(separator: "\n")
    }
}
