import Foundation
import Testing
import TestSupport

/// Keys and signals every full-screen program answers: Ctrl-Z gives the shell back ("Stopped") and
/// `fg` brings the grid back repainted; SIGTERM restores the terminal and quits.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct JobControlGalleryTests {
    /// An interactive shell (job control on) in tmux, in a directory with a list of 30 images.
    static func shell() async throws -> (TmuxSession, URL) {
        let dir = try Fixtures.temporaryDirectory("gallery-jobs")
        try await ScreenOracle.mixedList(in: dir, count: 30)
        let command = "cd \(dir.path) && PS1='ready$ ' TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache exec bash --norc --noprofile -i"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        #expect(await tmux.wait { $0.contains("ready$") }.ok, "no shell prompt")
        return (tmux, dir)
    }

    @Test(.timeLimit(.minutes(2)))
    func ctrlZStopsToTheShellAndFgRepaintsTheGrid() async throws {
        let (tmux, dir) = try await Self.shell()
        defer { try? FileManager.default.removeItem(at: dir) }
        await tmux.send("\(EndToEnd.binary.path) --renderer blocks list.txt", "Enter")
        #expect(await tmux.wait(timeout: 20) { $0.contains("Item0") && $0.contains("/30 · grid") }.ok, "no grid")
        await tmux.send("l", "l")
        #expect(await tmux.wait { $0.contains(" 3/30 ") }.ok)
        await tmux.send("C-z")
        let stopped = await tmux.wait(timeout: 20) { $0.contains("Stopped") && !$0.contains("/30 · grid") }
        #expect(stopped.ok, "no 'Stopped' from the shell: \(stopped.screen)")
        // The terminal is the shell's again: typed text echoes as usual.
        await tmux.send("echo back-in-the-shell", "Enter")
        #expect(await tmux.wait { $0.contains("back-in-the-shell\n") || $0.split(separator: "\n").contains { $0 == "back-in-the-shell" } }.ok)
        await tmux.send("fg", "Enter")
        let resumed = await tmux.wait(timeout: 20) { $0.contains(" 3/30 · grid") && $0.contains("Item0") && !$0.contains("back-in-the-shell") }
        #expect(resumed.ok, "fg did not bring the grid back: \(resumed.screen)")
        // Still alive and answering keys.
        await tmux.send("l")
        #expect(await tmux.wait { $0.contains(" 4/30 ") }.ok)
        await tmux.send("q")
        #expect(await tmux.wait { $0.contains("ready$") && !$0.contains("/30 · grid") }.ok)
    }

    @Test(.timeLimit(.minutes(2)))
    func sigtermRestoresTheTerminalAndQuits() async throws {
        let (tmux, dir) = try await Self.shell()
        defer { try? FileManager.default.removeItem(at: dir) }
        await tmux.send("\(EndToEnd.binary.path) --renderer blocks list.txt", "Enter")
        #expect(await tmux.wait(timeout: 20) { $0.contains("Item0") && $0.contains("/30 · grid") }.ok, "no grid")
        // The gallery is the shell's child (the shell is the pane's process).
        let shell = await tmux.tmux(["list-panes", "-t", "0", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let pids = try ChildProcess.run("/usr/bin/pgrep", ["-P", shell]).out
        let pid = try #require(pids.split(separator: "\n").compactMap { Int32($0) }.first)
        kill(pid, SIGTERM)
        #expect(await tmux.wait(timeout: 20) { !$0.contains("/30 · grid") }.ok, "still in the gallery after SIGTERM")
        await tmux.send("echo status=$?", "Enter")
        let after = await tmux.wait { $0.contains("status=") }
        #expect(after.ok && after.screen.contains("ready$"), "\(after.screen)")
    }
}
