import Foundation

/// The same session driven from synchronous code (the benchmarks of `sdgallery-bench`): each call
/// blocks its thread until tmux answers. Async tests use the async forms, which run these on a
/// thread of their own.
extension TmuxSession {
    /// Starts `command` in a `columns`×`rows` session with `environment` laid over this process's
    /// (the tests' private cache home by default). Without `statusLine` the pane is the whole window
    /// and Esc reaches the program at once (`escape-time 0`), as in a terminal without tmux.
    public static func startBlocking(columns: Int, rows: Int, command: String,
                                     environment: [String: String] = ChildProcess.testEnvironment,
                                     statusLine: Bool = true, binary: String = "/usr/bin/tmux") throws -> TmuxSession {
        let session = TmuxSession(binary: binary)
        var arguments = ["-L", session.socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command]
        if !statusLine { arguments += [";", "set-option", "-g", "status", "off", ";", "set-option", "-s", "escape-time", "0"] }
        let result = try ChildProcess.run(binary, arguments, detached: true, environment: environment)
        if result.status != 0 { throw TmuxError(message: "tmux new-session failed with status \(result.status)") }
        return session
    }

    /// Runs `tmux -L socket ARGUMENTS` and returns its standard output ("" when it failed).
    @discardableResult
    public func run(_ arguments: [String]) -> String {
        (try? ChildProcess.run(binary, ["-L", socket] + arguments).out) ?? ""
    }

    /// Sends keys (tmux key names), blocking.
    public func send(_ keys: String...) { run(["send-keys", "-t", "0"] + keys) }

    /// The pane as text, blocking.
    public func capture() -> String { run(["capture-pane", "-p", "-t", "0"]) }

    /// The pane's process id (the program's, when the command starts it with `exec`).
    public var pid: Int32? {
        Int32(run(["list-panes", "-t", "0", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits up to `timeout` seconds for the pane's program to exit; whether it did.
    @discardableResult
    public func waitForExit(timeout: Double) -> Bool {
        guard let pid else { return true }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if kill(pid, 0) != 0 { return true }
            usleep(50_000)
        }
        return false
    }

    /// Kills the tmux server now (it is killed on deinit too).
    public func close() { run(["kill-server"]) }
}
