import Foundation
import Testing
import TestSupport

/// `/` filters the items by a substring of URL or title as it is typed; Enter keeps it, Esc clears.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct FilterGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func slashFiltersAndEscClears() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-filter")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ScreenOracle.mixedList(in: dir, count: 60)  // titles Item0 … Item59
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer blocks list.txt; echo SDG-EXIT=$?; sleep 30"
        let tmux = try await TmuxSession.start(columns: 120, rows: 40, command: command)
        #expect(await tmux.wait(timeout: 20) { $0.contains("Item0") && $0.contains("1/60 · grid") }.ok, "no grid")
        await tmux.send("/", "I", "t", "e", "m", "5")
        let typed = await tmux.wait { $0.contains("/Item5▏ 11 of 60") && $0.contains("Item59") && !$0.contains("Item0 ") }
        #expect(typed.ok, "filter prompt: \(typed.screen)")
        await tmux.send("Enter")
        let kept = await tmux.wait { $0.contains("1/11 · 11 of 60 matching /Item5") }
        #expect(kept.ok, "kept filter: \(kept.screen)")
        await tmux.send("l")
        #expect(await tmux.wait { $0.contains("2/11 · 11 of 60") }.ok)
        await tmux.send("Escape")
        let cleared = await tmux.wait(timeout: 10) { $0.contains("1/60 · grid") && $0.contains("Item0") }
        #expect(cleared.ok, "Esc did not clear: \(cleared.screen)")
        await tmux.send("q")
        #expect(await tmux.wait { $0.contains("SDG-EXIT=0") }.ok)
    }
}
