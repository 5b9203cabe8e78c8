import Foundation
import Testing
import TestSupport

/// `… | sdgallery -`: the first lines show while the pipe is still open, the status bar says the list
/// is being read, and later lines join as they arrive.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct StreamingInputGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func linesShowAsThePipeDeliversThem() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("a.png", "#ff0000"), ("b.png", "#00ff00"), ("c.png", "#0000ff")])
        let writer = "printf 'a.png First\\nb.png Second\\n'; while [ ! -f go ]; do sleep 0.1; done; printf 'c.png Third\\n'"
        let command = "cd \(dir.path) && (\(writer)) | TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer blocks -; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        let first = await tmux.wait(timeout: 20) { $0.contains("First") && $0.contains("Second") && $0.contains("1/2") && $0.contains("reading the list") }
        #expect(first.ok, "the first lines did not show while the pipe was open: \(first.screen)")
        #expect(!first.screen.contains("Third"))
        try Data().write(to: dir.appendingPathComponent("go"))
        let all = await tmux.wait(timeout: 20) { $0.contains("Third") && $0.contains("1/3") && !$0.contains("reading the list") }
        #expect(all.ok, "later lines did not join: \(all.screen)")
        await tmux.send("l", "l")
        #expect(await tmux.wait { $0.contains("3/3") }.ok, "keys come from the terminal")
        await tmux.send("q")
    }
}
