import Foundation

/// The real UI in tmux, on a private socket: a 160×48 pane (no status line) running one command,
/// keys sent with `send-keys`, the screen read with `capture-pane`.
final class TmuxSession {
    let socket: String
    let config: String

    /// Starts `command` (a shell command line; prefix it with `exec` so the pane's pid is the program's).
    init?(command: String, columns: Int = 160, rows: Int = 48, scratch: URL) {
        socket = "sdgbench-\(getpid())-\(UUID().uuidString.prefix(6))"
        config = scratch.appendingPathComponent("\(socket).conf").path
        try? "set -g status off\nset -g escape-time 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        // No pipe for new-session's output: the tmux server it forks keeps that pipe open for good.
        guard tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command], output: false) != nil else { return nil }
    }

    /// Runs tmux with this session's socket and config; its standard output, nil when it failed.
    @discardableResult
    func tmux(_ arguments: [String], output: Bool = true) -> String? {
        runTool("/usr/bin/tmux", ["-L", socket, "-f", config] + arguments, captureOutput: output)
    }

    /// Sends keys (tmux key names such as `PageDown`, `Right`, `q`).
    func send(_ keys: String...) { tmux(["send-keys", "-t", "0"] + keys) }

    /// The pane's text.
    func capture() -> String { tmux(["capture-pane", "-p", "-t", "0"]) ?? "" }

    /// The pane's process id (the program, when started with `exec`).
    var pid: Int32? {
        tmux(["list-panes", "-t", "0", "-F", "#{pane_pid}"]).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Whether the pane's program still runs.
    var isRunning: Bool { pid.map { kill($0, 0) == 0 } ?? false }

    /// Waits up to `timeout` seconds for the program to exit.
    @discardableResult
    func waitForExit(timeout: Double) -> Bool {
        guard let pid else { return true }
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if kill(pid, 0) != 0 { return true }
            usleep(50_000)
        }
        return false
    }

    /// Kills the tmux server of this session.
    func close() {
        tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: config)
    }

    /// What the gallery's grid shows: the items whose captions are on screen (titles `N.jpg`) and
    /// whether every one of them is final (details starting with `W×H`) or failed.
    struct GridScreen {
        var visible: [Int] = []
        var settled = 0
        var complete: Bool { !visible.isEmpty && settled == visible.count }
    }

    /// Reads the grid from a capture: a title line holds `N.jpg` tokens; the line under it, at the
    /// same columns, holds each cell's details.
    static func parseGrid(_ text: String) -> GridScreen {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        var screen = GridScreen()
        for (row, line) in lines.enumerated() where row + 1 < lines.count {
            let tokens = titleTokens(line)
            guard !tokens.isEmpty else { continue }
            let details = lines[row + 1]
            for (index, (start, end)) in tokens.enumerated() {
                screen.visible.append(Int(String(String.UnicodeScalarView(line[start..<end]).prefix { ("0"..."9").contains($0) })) ?? -1)
                let stop = index + 1 < tokens.count ? tokens[index + 1].0 : details.count
                let cell = start < details.count ? String(String.UnicodeScalarView(details[start..<min(stop, details.count)])) : ""
                let text = cell.trimmingCharacters(in: .whitespaces)
                let pending = text.isEmpty || text.hasPrefix("waiting") || text.contains("loading") || text.contains("%")
                    || text.range(of: #"^\d+ (B|KB|MB)$"#, options: .regularExpression) != nil
                if !pending { screen.settled += 1 }
            }
        }
        return screen
    }

    /// Column ranges of `N.jpg` tokens standing alone (a title line has nothing else).
    static func titleTokens(_ line: [Unicode.Scalar]) -> [(Int, Int)] {
        var tokens: [(Int, Int)] = []
        var i = 0
        while i < line.count {
            if line[i] == " " { i += 1; continue }
            var j = i
            while j < line.count, line[j] != " " { j += 1 }
            let word = String(String.UnicodeScalarView(line[i..<j]))
            guard word.range(of: #"^\d+\.jpg$"#, options: .regularExpression) != nil else { return [] }
            tokens.append((i, j))
            i = j
        }
        return tokens
    }
}
