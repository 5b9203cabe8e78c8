import Foundation
import Testing
import TestSupport

/// `y` copies the selected image's URL with OSC 52: tmux (with `set-clipboard on`) takes it into a
/// paste buffer, as it does for any program.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct ClipboardGalleryTests {
    @Test(.timeLimit(.minutes(2)))
    func yCopiesTheSelectedURLWithOSC52() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-clipboard")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ScreenOracle.mixedList(in: dir, count: 12)
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer blocks list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        await tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        #expect(await tmux.wait(timeout: 20) { $0.contains("Item0") && $0.contains("/12 · grid") }.ok, "no grid")
        await tmux.send("l", "l")
        #expect(await tmux.wait { $0.contains(" 3/12 ") }.ok)
        await tmux.send("y")
        #expect(await tmux.wait { $0.contains("copied the URL") }.ok, "no status line")
        let list = try String(contentsOf: dir.appendingPathComponent("list.txt"), encoding: .utf8).split(separator: "\n")
        let third = try #require(list.dropFirst(2).first?.split(separator: " ").first.map(String.init))
        let buffer = await tmux.tmux(["show-buffer"])
        #expect(buffer.hasPrefix("file:///") && buffer.hasSuffix("/\(third)") && !buffer.contains("\n"), "buffer: \(buffer)")
        await tmux.send("q")
    }
}
