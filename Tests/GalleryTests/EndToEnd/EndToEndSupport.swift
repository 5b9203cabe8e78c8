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

    /// Runs a program to completion (killed after `timeout` seconds) and returns (status, stdout,
    /// stderr). Uses posix_spawn and waitpid directly: Foundation's Process needs a free GCD worker to
    /// notice the exit, and parallel tests can take them all. With `detached`, output goes to
    /// /dev/null (for commands that leave a daemon holding their stdout, such as the first tmux).
    @discardableResult
    static func run(_ path: String, _ arguments: [String], timeout: Double = 10, detached: Bool = false) throws -> (status: Int32, out: String, err: String) {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw TmuxError(message: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if detached {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // The test runner's threads block most signals, and a child inherits that mask: give it a
        // clean one so SIGTERM/SIGINT work in tmux and the gallery.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheHome
        // `make test-asan`: the test process runs without leak checking (its harness — FlyingFox,
        // XCTest — is not ours to fix), the sdgallery processes it starts with it.
        if let childOptions = environment["SDG_CHILD_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = childOptions }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(outPipe[1]); close(errPipe[1])
        defer { close(outPipe[0]); close(errPipe[0]) }
        guard spawned == 0 else { throw TmuxError(message: "cannot run \(path)") }
        var out = [UInt8](), err = [UInt8]()
        var open = [outPipe[0], errPipe[0]]
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty && Date() < deadline {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                let n = read(entry.fd, &buffer, buffer.count)
                if n <= 0 { open.removeAll { $0 == entry.fd }; continue }
                if entry.fd == outPipe[0] { out += buffer[0..<n] } else { err += buffer[0..<n] }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() >= deadline { kill(pid, SIGKILL) }
            usleep(2000)
        }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
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
