import SafeText
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tmux the program runs in says about the client showing the pane, asked of the tmux
/// server itself in one command before the probe writes (a few milliseconds):
/// `tmux -S socket show-options -Apv -t pane allow-passthrough ; display -p -t pane
/// '#{client_termfeatures}|#{client_termtype}'`.
/// - `allow-passthrough` (off by default): whether wrapped sequences reach the outer terminal;
/// - `client_termfeatures`: what tmux found the outer terminal can do; `sixel` is there only when it
///   draws sixel (tmux ≥ 3.4 draws a sixel only in such a client, and a "SIXEL IMAGE" text box in
///   any other: kitty, GNOME Terminal);
/// - `client_termtype`: the outer terminal's own XTVERSION reply ("kitty(0.41.1)", "XTerm(379)").
public struct TmuxClient: Sendable, Hashable {
    /// Whether `allow-passthrough` is `on` or `all` for the pane; nil when tmux did not say.
    public var passthrough: Bool?
    /// The client's terminal features (`client_termfeatures`), e.g. "RGB", "sixel".
    public var features: Set<String>
    /// The outer terminal's XTVERSION reply (`client_termtype`), sanitized; nil when empty.
    public var terminalType: String?
    /// Whether this program switched `allow-passthrough` on for its pane (`set -p`), as timg and
    /// yazi do, to draw kitty images by Unicode placeholders.
    public var switchedPassthroughOn = false

    /// Creates what a client said (tests pass canned ones).
    public init(passthrough: Bool?, features: Set<String> = [], terminalType: String? = nil) {
        self.passthrough = passthrough
        self.features = features
        self.terminalType = terminalType.map { UntrustedText.strip($0) }.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
    }

    /// Whether the outer terminal draws sixel (so tmux draws the sixels it is sent).
    public var drawsSixel: Bool { features.contains("sixel") }

    /// Reads the command's output: the option's value on the first line, then the features and the
    /// terminal type separated by `|`.
    init?(output: String) {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2 else { return nil }
        let fields = lines[1].split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let value = lines[0].split(whereSeparator: \.isWhitespace).first
        self.init(passthrough: value == "on" || value == "all" ? true : value == "off" ? false : nil,
                  features: Set(fields[0].split(separator: ",").map { String($0.prefix(32)) }.prefix(64)),
                  terminalType: fields.count > 1 ? fields[1] : nil)
    }

    /// Asks the tmux of `environment` (`TMUX`, `TMUX_PANE`, `PATH`); nil when not inside tmux or tmux
    /// did not answer within 500 ms (no `tmux` on `PATH`, a client of another protocol version).
    public static func ask(environment: [String: String]) -> TmuxClient? {
        guard let target = Target(environment: environment) else { return nil }
        return run(target.command + ["show-options", "-Apv", "-t", target.pane, "allow-passthrough", ";",
                                     "display-message", "-p", "-t", target.pane, "#{client_termfeatures}|#{client_termtype}"],
                   path: environment["PATH"]).flatMap(TmuxClient.init(output:))
    }

    /// Switches `allow-passthrough` on for the program's own pane (`set -p`, which no other pane
    /// sees); whether tmux took it.
    public static func switchPassthroughOn(environment: [String: String]) -> Bool {
        guard let target = Target(environment: environment) else { return false }
        return run(target.command + ["set-option", "-p", "-t", target.pane, "allow-passthrough", "on"], path: environment["PATH"]) != nil
    }

    /// The server's socket and the pane, from the environment tmux gives its panes.
    struct Target {
        let socket: String
        let pane: String
        init?(environment: [String: String]) {
            guard let socket = environment["TMUX"]?.split(separator: ",").first, !socket.isEmpty,
                  let pane = environment["TMUX_PANE"], pane.hasPrefix("%") else { return nil }
            self.socket = String(socket)
            self.pane = pane
        }
        var command: [String] { ["tmux", "-S", socket] }
    }

    /// A child running: its pid and the read end of its standard output.
    struct Pending {
        let pid: pid_t
        let output: Int32
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
