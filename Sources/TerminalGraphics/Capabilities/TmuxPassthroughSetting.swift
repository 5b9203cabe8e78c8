#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tmux the program runs in lets passthrough sequences out (`allow-passthrough`, off by
/// default): asked of the tmux server itself, `tmux -S socket show -Apv -t pane allow-passthrough`
/// (a few milliseconds, while the probe's replies arrive). When it is off, the probe does not wait
/// for the outer terminal's reply that cannot come (that wait cost ~120 ms in every tmux).
enum TmuxPassthroughSetting {
    /// A `tmux show-options` running: started before the probe writes, read when tmux's DA1 reply
    /// is in, so asking costs no extra time.
    struct Pending {
        let pid: pid_t
        let output: Int32
    }

    /// Starts asking; nil when not inside tmux or `tmux` cannot be started.
    static func start(environment: [String: String]) -> Pending? {
        guard let socket = environment["TMUX"]?.split(separator: ",").first, !socket.isEmpty,
              let pane = environment["TMUX_PANE"], pane.hasPrefix("%") else { return nil }
        return spawn(["tmux", "-S", String(socket), "show-options", "-Apv", "-t", pane, "allow-passthrough"], path: environment["PATH"])
    }

    /// true for `on`/`all`, false for `off`; nil when tmux could not say by `deadline` (monotonic
    /// milliseconds, `TerminalProbe.nowMilliseconds`): no `tmux` on `PATH`, a client of another
    /// protocol version than the server, too slow.
    static func finish(_ pending: Pending, by deadline: Int) -> Bool? {
        switch collect(pending, by: deadline)?.split(whereSeparator: \.isWhitespace).first {
        case "on", "all": return true
        case "off": return false
        default: return nil
        }
    }

    /// Asks and waits up to 500 ms.
    static func allowed(environment: [String: String]) -> Bool? {
        start(environment: environment).flatMap { finish($0, by: TerminalProbe.nowMilliseconds() + 500) }
    }

    /// Runs `arguments` (looked up on `path`) and returns its standard output when it exits with 0
    /// within 500 ms, else nil.
    static func run(_ arguments: [String], path: String?) -> String? {
        spawn(arguments, path: path).flatMap { collect($0, by: TerminalProbe.nowMilliseconds() + 500) }
    }

    /// Starts `arguments` with stdin and stderr on /dev/null and stdout into a pipe.
    static func spawn(_ arguments: [String], path: String?) -> Pending? {
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let search = "PATH=" + (path ?? "/usr/bin:/bin")
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup(search), nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) == 0
        _ = close(pipe[1])
        guard spawned else {
            _ = close(pipe[0])
            return nil
        }
        return Pending(pid: pid, output: pipe[0])
    }

    /// Reads the child's output until it ends or `deadline`; its output when it exited with 0, else
    /// nil (a child still running at the deadline is killed). Always reaps the child.
    static func collect(_ pending: Pending, by deadline: Int) -> String? {
        defer { _ = close(pending.output) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var ended = false
        while output.count < 4096 {
            let remaining = deadline - TerminalProbe.nowMilliseconds()
            if remaining <= 0 { break }
            var fds = pollfd(fd: pending.output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(remaining))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { break }
            let count = buffer.withUnsafeMutableBytes { read(pending.output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = count == 0
                break
            }
            output += buffer[0..<count]
        }
        // Its output ended: it is exiting. Else (the deadline, a flood): stop it.
        if !ended { kill(pending.pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pending.pid, &status, 0) < 0 && errno == EINTR {}
        guard ended, (status & 0x7F) == 0, (status >> 8) & 0xFF == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
