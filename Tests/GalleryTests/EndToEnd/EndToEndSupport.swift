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

    /// A cache home of this test process, so no run touches the user's ~/.cache.
    static let cacheHome: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-e2e-cache-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }()

    static var binaryBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }
    static var tmuxInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }
    static var convertInstalled: Bool { FileManager.default.isExecutableFile(atPath: convert) }

    /// Runs a program to completion (killed after `timeout` seconds) through `ChildProcess`, with the
    /// test's cache home and, under `make test-asan`, leak checking in the child (the test process runs
    /// without it: its harness — FlyingFox, XCTest — is not ours to fix).
    @discardableResult
    static func run(_ path: String, _ arguments: [String], timeout: Double = 10, detached: Bool = false) throws -> (status: Int32, out: String, err: String) {
        var environment = ["XDG_CACHE_HOME": cacheHome]
        if let childOptions = ProcessInfo.processInfo.environment["SDG_CHILD_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = childOptions }
        let result = try ChildProcess.run(path, arguments, timeout: timeout, detached: detached, environment: environment)
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
