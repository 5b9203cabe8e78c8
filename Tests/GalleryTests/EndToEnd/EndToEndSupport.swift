import Foundation
import ImageCodecs
import Testing
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

    /// What an end-to-end suite needs besides the built binary.
    enum Tool: Sendable {
        case tmux, convert, xterm, mlterm, kitty, nginx, script, python3

        /// Why the tool is missing, or nil when it is there.
        var missing: String? {
            switch self {
            case .tmux: return EndToEnd.tmuxInstalled ? nil : "tmux is not installed"
            case .convert: return EndToEnd.convertInstalled ? nil : "needs /usr/bin/convert (ImageMagick)"
            case .xterm: return GraphicalTerminal.missingTools(for: .xterm)
            case .mlterm: return GraphicalTerminal.missingTools(for: .mlterm)
            case .kitty: return GraphicalTerminal.missingTools(for: .kitty)
            case .python3: return FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? nil : "needs python3 (with numpy)"
            case .nginx: return NginxServer.available ? nil : "needs nginx and openssl (scripts/setup installs them)"
            case .script: return FileManager.default.isExecutableFile(atPath: "/usr/bin/script") ? nil : "needs script (util-linux)"
            }
        }
    }

    /// The one condition of every end-to-end suite: the built `sdgallery` and `tools`. Goes with the
    /// tier tag: `@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))`.
    static func needs(_ tools: Tool..., sourceLocation: SourceLocation = #_sourceLocation) -> ConditionTrait {
        let missing = (binaryBuilt ? [] : ["needs \(binary.path) (swift build)"]) + tools.compactMap(\.missing)
        return .enabled(if: missing.isEmpty, "\(missing.joined(separator: "; "))", sourceLocation: sourceLocation)
    }

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
