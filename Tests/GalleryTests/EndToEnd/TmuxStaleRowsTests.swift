import Foundation
import Testing
import TestSupport

/// Half-blocks in tmux: after key sequences the pane (with its colours) equals the pane after Ctrl-L
/// (a full repaint) — no rows of earlier images left between the grid and the status bar.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct TmuxStaleRowsTests {
    /// A captured line without the colour resets tmux puts at its start or end (they follow the
    /// previous cell's colour, not what the line shows).
    static func normalized(_ pane: String) -> [String] {
        pane.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).replacing(/^(\x1B\[(39|49|0)?m)+|(\x1B\[(39|49|0)?m)+$/, with: "")
        }
    }

    /// The pane with escapes once the gallery has settled after `keys` keys (on a frame after
    /// `frame`, when given: a resize) and two captures in a row agree (tmux draws what it read a
    /// moment later).
    static func settled(_ tmux: TmuxSession, _ log: SettleLog, keys: Int, after frame: Int? = nil) async -> (pane: String, state: SettleLog.Settled?) {
        let state = try? await Blocking.run { log.waitSettled(keys: keys, after: frame, timeout: 60) }
        var previous = await tmux.capture(escapes: true)
        for _ in 0..<100 {
            try? await Task.sleep(for: .milliseconds(50))
            let now = await tmux.capture(escapes: true)
            if now == previous { return (now, state) }
            previous = now
        }
        return (previous, nil)
    }

    static func oracle(_ groups: [[String]], resize: (columns: Int, rows: Int)? = nil, label: String) async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-tmux-stale")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ScreenOracle.mixedList(in: dir, count: 60)
        let log = SettleLog(directory: dir.path)
        let command = "cd \(dir.path) && \(log.assignment) TERM=tmux-256color COLORTERM=truecolor XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        #expect(await tmux.wait { $0.contains("Item0") && $0.contains("/60 · grid") }.ok)
        var keys = 0  // each tmux key name here is one key to the gallery
        var last = await settled(tmux, log, keys: keys)
        for group in groups {
            for key in group { await tmux.send(key) }
            keys += group.count
            last = await settled(tmux, log, keys: keys)
        }
        if let resize {
            await tmux.resize(columns: resize.columns, rows: resize.rows)
            last = await settled(tmux, log, keys: keys, after: last.state?.frame)
            await tmux.send("j")
            keys += 1
        }
        let (before, settledBefore) = await settled(tmux, log, keys: keys)
        await tmux.send("C-l")
        let (after, settledAfter) = await settled(tmux, log, keys: keys + 1, after: settledBefore?.frame)
        #expect(settledBefore != nil && settledAfter != nil, "\(label): did not settle; the event log ends with \(log.lines.suffix(2))")
        if let keep = ProcessInfo.processInfo.environment["SDG_KEEP_SHOTS"] {
            try? before.write(toFile: "\(keep)/tmux-\(label)-keys.txt", atomically: true, encoding: .utf8)
            try? after.write(toFile: "\(keep)/tmux-\(label)-repaint.txt", atomically: true, encoding: .utf8)
        }
        let differing = zip(normalized(before), normalized(after)).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(normalized(before) == normalized(after), "\(label): rows \(differing) differ from the repainted pane")
    }

    @Test(.timeLimit(.minutes(2)))
    func pagingAndScrollingLeaveNoStaleRows() async throws {
        try await Self.oracle([["NPage", "NPage"], ["PPage"], ["j", "j", "j"], ["k", "k", "k", "k", "k"], ["G"], ["g"]], label: "paging")
    }

    @Test(.timeLimit(.minutes(2)))
    func fullViewListToggleAndResizeLeaveNoStaleRows() async throws {
        try await Self.oracle([["l", "Enter"], ["q"], ["v"], ["v"], ["j", "Enter"], ["Escape"]],
                                resize: (84, 26), label: "views")
    }
}
