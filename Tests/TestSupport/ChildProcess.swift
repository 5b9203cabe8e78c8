import Foundation

/// The one way tests run a program: `posix_spawnp` and `waitpid` (Foundation's `Process` needs a free
/// GCD worker to notice the exit, and the loopback servers of the suite need those), a clean signal
/// mask and default handlers (the test runner's threads block most signals and a child would inherit
/// that), stdin on /dev/null, stdout and stderr captured (or on /dev/null with `detached`, for
/// commands that leave a daemon holding them, such as the first tmux), killed after `timeout`.
///
/// ```swift
/// let result = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir])
/// if result.status != 0 { print(result.err) }
/// ```
public enum ChildProcess {
    /// What a finished program left.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal that ended it (SIGKILL after the timeout: 137).
        public var status: Int32
        /// Its standard output, as bytes.
        public var output: [UInt8]
        /// Its standard output.
        public var out: String { String(decoding: output, as: UTF8.self) }
        /// Its standard error.
        public var err: String
    }

    /// An error starting the program.
    public struct SpawnError: Error, CustomStringConvertible {
        /// What failed.
        public var description: String
        /// An error saying `description`.
        public init(description: String) { self.description = description }
    }

    /// The environment the tests give the programs they start (through tmux too): a cache home of this
    /// test process, so no run touches the user's ~/.cache; under `make test-asan`, leak checking
    /// (the test process runs without it: its harness — FlyingFox, XCTest — is not ours to fix).
    public static let testEnvironment: [String: String] = {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-e2e-cache-\(getpid())")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ["XDG_CACHE_HOME": home.path]
        if let childOptions = ProcessInfo.processInfo.environment["SDG_CHILD_ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = childOptions }
        return environment
    }()

    /// Runs `program` (a path, or a name looked up on PATH) with `arguments` to completion. The child's
    /// environment is this process's with `environment` laid over it. Blocks: call it through
    /// `Blocking.run` from async tests.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], timeout: Double = 10, detached: Bool = false,
                           environment overrides: [String: String] = [:]) throws -> Result {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        var pid: pid_t = 0
        let spawned = spawn(program, arguments, overrides, pid: &pid) { actions in
            if detached {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
                posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
            }
            for fd in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        close(outPipe[1]); close(errPipe[1])
        defer { close(outPipe[0]); close(errPipe[0]) }
        guard spawned == 0 else { throw SpawnError(description: "cannot run \(program): \(String(cString: strerror(spawned)))") }
        var out = [UInt8](), err = [UInt8]()
        var open = detached ? [] : [outPipe[0], errPipe[0]]
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
        return Result(status: code, output: out, err: String(decoding: err, as: UTF8.self))
    }

    /// Starts `program` in the background (stdin and output on /dev/null, the same clean signal
    /// mask) and returns its pid, 0 when it could not start; the caller kills and reaps it.
    public static func start(_ program: String, _ arguments: [String], environment overrides: [String: String] = [:]) -> pid_t {
        var pid: pid_t = 0
        let spawned = spawn(program, arguments, overrides, pid: &pid) { actions in
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        return spawned == 0 ? pid : 0
    }

    /// `posix_spawnp` with stdin on /dev/null, an empty signal mask and default handlers, the process's
    /// environment with `overrides` laid over it, and the output set up by `wire`. Returns its error.
    private static func spawn(_ program: String, _ arguments: [String], _ overrides: [String: String], pid: inout pid_t,
                              wire: (inout posix_spawn_file_actions_t) -> Void) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        wire(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in overrides { environment[key] = value }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        return posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
    }
}
