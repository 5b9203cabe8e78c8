import Foundation
import ImageCodecs
import TestSupport

/// Helpers for the end-to-end tests: the built binary, fixture images made with ImageMagick, and
/// child processes run to completion.
enum EndToEnd {
    /// The `sdgallery` built next to this test bundle (`swift build --build-tests` builds both; a
    /// sanitizer build in its own scratch path tests its own, sanitized, binary).
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("sdgallery")
    /// ImageMagick's convert (not the /usr/local stand-in).
    static let convert = "/usr/bin/convert"

    /// The cache home of this test process (see `ChildProcess.testEnvironment`).
    static var cacheHome: String { ChildProcess.testEnvironment["XDG_CACHE_HOME"] ?? "/tmp" }

    static var binaryBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }
    static var tmuxInstalled: Bool { TmuxSession.installed }
    static var convertInstalled: Bool { FileManager.default.isExecutableFile(atPath: convert) }

    /// Runs a program to completion (killed after `timeout` seconds) through `ChildProcess`, in the
    /// tests' environment (`ChildProcess.testEnvironment`).
    @discardableResult
    static func run(_ path: String, _ arguments: [String], timeout: Double = 10, detached: Bool = false) throws -> (status: Int32, out: String, err: String) {
        let result = try ChildProcess.run(path, arguments, timeout: timeout, detached: detached, environment: ChildProcess.testEnvironment)
        return (result.status, result.out, result.err)
    }

    /// Makes solid-colour PNGs (name → ImageMagick colour) in `dir`.
    static func makeImages(in dir: URL, _ colours: [(String, String)], size: String = "320x240") throws {
        for (name, colour) in colours {
            try run(convert, ["-size", size, "xc:\(colour)", dir.appendingPathComponent(name).path])
        }
    }

    /// `makeImages` on a thread of its own (it waits for child processes).
    static func makeImagesAsync(in dir: URL, _ colours: [(String, String)], size: String = "320x240") async throws {
        try await Blocking.run { try makeImages(in: dir, colours, size: size) }
    }

    /// Whether this build's codecs decode PNG (false until the codecs work is merged).
    static func codecsDecode(_ file: URL) -> Bool {
        guard let data = try? Data(contentsOf: file) else { return false }
        return (try? ImageCoders.decode(data)) != nil
    }
}
