import Foundation
import Testing
import TestSupport

/// A private tmux server (its own `-L` socket) running one command in a detached session.
///
/// `Sendable` (its one property is a constant) so that it can be made inside `Blocking.run`; the async
/// methods run tmux on a thread of their own, never on the cooperative pool.
final class TmuxSession: Sendable {
    let socket = "sdg-e2e-\(UUID().uuidString.prefix(8))"

    init(columns: Int, rows: Int, command: String) throws {
        let r = try EndToEnd.run("/usr/bin/tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command], detached: true)
        if r.status != 0 { throw TmuxError(message: "tmux new-session failed with status \(r.status)") }
    }

    deinit { _ = try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "kill-server"], detached: true) }

    func resize(columns: Int, rows: Int) {
        _ = try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    func send(_ keys: String...) {
        _ = try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "send-keys", "-t", "0"] + keys)
    }

    /// The pane as text (with escapes when `escapes`).
    func capture(escapes: Bool = false) -> String {
        (try? EndToEnd.run("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : [])).out) ?? ""
    }

    /// Runs `tmux -L socket ARGS` on a thread of its own and returns its standard output.
    func tmux(_ arguments: [String]) async -> String {
        let socket = self.socket
        return (try? await Blocking.run { try EndToEnd.run("/usr/bin/tmux", ["-L", socket] + arguments).out }) ?? ""
    }

    /// `send`, off the cooperative pool.
    func press(_ keys: String...) async { _ = await tmux(["send-keys", "-t", "0"] + keys) }

    /// `capture`, off the cooperative pool.
    func snapshot(escapes: Bool = false) async -> String {
        await tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// Waits up to `timeout` seconds for the capture to satisfy `condition`; returns the last capture.
    /// Captures on a thread of their own and sleeps asynchronously between them, so the cooperative
    /// pool stays free for the servers.
    @discardableResult
    func wait(timeout: Double = 4, escapes: Bool = false, _ condition: (String) -> Bool) async -> (ok: Bool, screen: String) {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while true {
            // Captured after the deadline check: the last capture always gets its look, even when a
            // busy pool made the sleep outlast the deadline.
            let late = Date() >= deadline
            screen = await snapshot(escapes: escapes)
            if condition(screen) { return (true, screen) }
            if late { return (false, screen) }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

struct TmuxError: Error { var message: String }

@Suite(.enabled(if: EndToEnd.tmuxInstalled, "tmux is not installed: skipping the end-to-end gallery test"),
       .enabled(if: EndToEnd.binaryBuilt && EndToEnd.convertInstalled, "needs .build/debug/sdgallery (swift build) and /usr/bin/convert"))
struct TmuxGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func galleryShowsCaptionsAndColoursFollowsKeysAndRestoresTheTerminal() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-tmux")
        defer { try? FileManager.default.removeItem(at: dir) }
        try EndToEnd.makeImages(in: dir, [("red.png", "#ff0000"), ("lime.png", "#00ff00"), ("blue.png", "#0000ff")])
        var list = "# end-to-end\n"
        for i in 0..<12 { list += ["red.png", "lime.png", "blue.png"][i % 3] + " Item \(i)\n" }
        list += "missing.png Gone\n"
        try Data(list.utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color COLORTERM=truecolor XDG_CACHE_HOME=\(EndToEnd.cacheHome) \(EndToEnd.binary.path) list.txt; echo SDG-EXIT=$?; sleep 30"
        let tmux = try TmuxSession(columns: 100, rows: 30, command: command)

        // Generous: a debug binary starting while the whole suite runs on 2 cores can take seconds.
        let first = await tmux.wait(timeout: 12) { $0.contains("Item 0") && $0.contains("1/13 · grid") }
        #expect(first.ok, "no captions: \(first.screen)")
        if EndToEnd.codecsDecode(dir.appendingPathComponent("red.png")) {
            let colours = await tmux.wait(escapes: true) {
                $0.contains("38;2;255;0;0") && $0.contains("48;2;255;0;0") && $0.contains("38;2;0;255;0") && $0.contains("38;2;0;0;255")
            }
            #expect(colours.ok, "half-block colours missing: \(colours.screen)")
            #expect(await tmux.wait { $0.contains("320×240") }.ok)
        } else {
            #expect(await tmux.wait { $0.contains("(PNG)") }.ok, "decoder errors not shown")
        }

        await tmux.press("j")
        #expect(await tmux.wait { !$0.contains(" 1/13 · grid") && $0.contains("/13 · grid") }.ok, "j did not move the selection")
        await tmux.press("G")
        let end = await tmux.wait { $0.contains("13/13 · grid") && $0.contains("Gone") }
        #expect(end.ok, "G: \(end.screen)")
        #expect(await tmux.wait { $0.contains("not found") }.ok)
        await tmux.press("v")
        #expect(await tmux.wait { $0.contains("13/13 · list") && $0.contains(dir.path) }.ok, "v did not switch to the list")
        // SIGWINCH: the gallery reflows to the new size, status bar on the new last row, no leftovers.
        tmux.resize(columns: 60, rows: 16)
        let small = await tmux.wait {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 16 && lines[15].hasPrefix(" 13/13 · list") && lines[15].hasSuffix("q quit")
        }
        #expect(small.ok, "no clean reflow to 60×16: \(small.screen)")
        #expect(small.screen.split(separator: "\n").allSatisfy { $0.count <= 60 })
        tmux.resize(columns: 100, rows: 30)
        #expect(await tmux.wait { $0.contains("13/13 · list") && $0.contains("? help  q quit") }.ok)
        await tmux.press("?")
        #expect(await tmux.wait { $0.contains("sdgallery — keys") && $0.contains("grid / list view") }.ok, "? did not show the help")
        await tmux.press("q")
        #expect(await tmux.wait { !$0.contains("sdgallery — keys") && $0.contains("13/13 · list") }.ok, "q did not close the help")
        await tmux.press("q")
        let exit = await tmux.wait { $0.contains("SDG-EXIT=0") }
        #expect(exit.ok, "no clean exit: \(exit.screen)")
        // The terminal is restored: the alternate screen is gone, no status bar or captions left over.
        #expect(!exit.screen.contains("? help  q quit"))
        #expect(!exit.screen.contains("Item 0"))
    }
}
