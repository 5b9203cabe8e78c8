import Foundation
import Testing
import TestSupport

@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct TmuxGalleryTests {
    @Test(.timeLimit(.minutes(1)))
    func galleryShowsCaptionsAndColoursFollowsKeysAndRestoresTheTerminal() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-tmux")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("red.png", "#ff0000"), ("lime.png", "#00ff00"), ("blue.png", "#0000ff")])
        var list = "# end-to-end\n"
        for i in 0..<12 { list += ["red.png", "lime.png", "blue.png"][i % 3] + " Item \(i)\n" }
        list += "missing.png Gone\n"
        try Data(list.utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color COLORTERM=truecolor XDG_CACHE_HOME=\(EndToEnd.cacheHome) \(EndToEnd.binary.path) list.txt; echo SDG-EXIT=$?; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)

        let first = await tmux.wait { $0.contains("Item 0") && $0.contains("1/13 · grid") }
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

        await tmux.send("j")
        #expect(await tmux.wait { !$0.contains(" 1/13 · grid") && $0.contains("/13 · grid") }.ok, "j did not move the selection")
        await tmux.send("G")
        let end = await tmux.wait { $0.contains("13/13 · grid") && $0.contains("Gone") }
        #expect(end.ok, "G: \(end.screen)")
        #expect(await tmux.wait { $0.contains("not found") }.ok)
        await tmux.send("v")
        #expect(await tmux.wait { $0.contains("13/13 · list") && $0.contains(dir.path) }.ok, "v did not switch to the list")
        // SIGWINCH: the gallery reflows to the new size, status bar on the new last row, no leftovers.
        await tmux.resize(columns: 60, rows: 16)
        let small = await tmux.wait {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 16 && lines[15].hasPrefix(" 13/13 · list") && lines[15].hasSuffix("q quit")
        }
        #expect(small.ok, "no clean reflow to 60×16: \(small.screen)")
        #expect(small.screen.split(separator: "\n").allSatisfy { $0.count <= 60 })
        await tmux.resize(columns: 100, rows: 30)
        #expect(await tmux.wait { $0.contains("13/13 · list") && $0.contains("? help  q quit") }.ok)
        await tmux.send("?")
        #expect(await tmux.wait { $0.contains("sdgallery — keys") && $0.contains("grid / list view") }.ok, "? did not show the help")
        await tmux.send("q")
        #expect(await tmux.wait { !$0.contains("sdgallery — keys") && $0.contains("13/13 · list") }.ok, "q did not close the help")
        await tmux.send("q")
        let exit = await tmux.wait { $0.contains("SDG-EXIT=0") }
        #expect(exit.ok, "no clean exit: \(exit.screen)")
        // The terminal is restored: the alternate screen is gone, no status bar or captions left over.
        #expect(!exit.screen.contains("? help  q quit"))
        #expect(!exit.screen.contains("Item 0"))
    }
}
