import Foundation

/// A private tmux server (its own `-L` socket) running one command in a detached session, with the
/// test environment of `ChildProcess.testEnvironment` (a private cache home; leak checks under
/// `make test-asan`). The one tmux harness of the tests.
///
/// Every tmux call spawns a process and waits for it, so each runs through `Blocking.run`: a test
/// that held one of the two cooperative-pool threads in `waitpid` would stall every in-process
/// loopback server of every parallel test.
public final class TmuxSession: Sendable {
    /// The tmux socket name (`tmux -L`).
    public let socket = "sdg-e2e-\(UUID().uuidString.prefix(8))"
    /// The tmux executable (Debian's, or another version such as scripts/setup's tmux 3.5a).
    public let binary: String

    /// Whether tmux is installed (scripts/setup installs it).
    public static let installed = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    init(binary: String = "/usr/bin/tmux") { self.binary = binary }

    /// Starts `command` in a `columns`×`rows` session (`startBlocking`, on a thread of its own).
    public static func start(columns: Int, rows: Int, command: String, binary: String = "/usr/bin/tmux") async throws -> TmuxSession {
        try await Blocking.run { try startBlocking(columns: columns, rows: rows, command: command, binary: binary) }
    }

    /// Kills the server (and the gallery in it) at once: a thread started here might never run if
    /// the test process ends first, leaving a gallery running in a detached tmux for good.
    deinit { _ = try? ChildProcess.run(binary, ["-L", socket, "kill-server"], timeout: 5, detached: true) }

    /// Resizes the window.
    public func resize(columns: Int, rows: Int) async {
        await tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Sends keys (tmux key names: `NPage`, `Enter`, `C-z`, or text).
    public func send(_ keys: String...) async {
        await tmux(["send-keys", "-t", "0"] + keys)
    }

    /// The pane as text (with escapes when `escapes`).
    public func capture(escapes: Bool = false) async -> String {
        await tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// Waits up to `timeout` seconds for the capture to satisfy `condition`; returns the last capture.
    @discardableResult
    public func wait(timeout: Double = 10, escapes: Bool = false, _ condition: (String) -> Bool) async -> (ok: Bool, screen: String) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            // Checked before the capture: the last capture always gets its look, even when a busy
            // machine made the sleep outlast the deadline.
            let late = Date() >= deadline
            let screen = await capture(escapes: escapes)
            if condition(screen) { return (true, screen) }
            if late { return (false, screen) }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `tmux -L socket ARGUMENTS` on a thread of its own and returns its standard output.
    @discardableResult
    public func tmux(_ arguments: [String]) async -> String {
        let socket = socket, binary = binary
        return (try? await Blocking.run { try ChildProcess.run(binary, ["-L", socket] + arguments).out }) ?? ""
    }
}

/// A tmux command failed.
public struct TmuxError: Error {
    /// What failed.
    public var message: String
    /// An error saying `message`.
    public init(message: String) { self.message = message }
}
