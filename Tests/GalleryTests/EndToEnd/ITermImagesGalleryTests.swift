import Foundation
import Testing
import TestSupport

/// iTerm2 inline images (OSC 1337) in a real mlterm and a real Konsole: `--print --renderer iterm2`,
/// then the gallery, each image in its own cell (colours read back from a screenshot; neither picks
/// iTerm2 by itself — mlterm answers no probe that names it, Konsole gets kitty — so it is forced).
@Suite(.endToEnd, EndToEnd.needs())
struct ITermImagesGalleryTests {
    @Test(.timeLimit(.minutes(2)), arguments: [GraphicalTerminal.Kind.mlterm, .konsole])
    func itermImagesShowInPrintAndGrid(in kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let dir = try Fixtures.temporaryDirectory("\(kind)-iterm2")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RedGreenRedList.write(in: dir)
        let sdgallery = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --renderer iterm2 --columns 3"
        let command = "cd \(dir.path) && \(sdgallery) --print list.txt; touch printed; read x; clear; \(sdgallery) list.txt; sleep 600"
        try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: kind, command: command, directory: "/tmp", displays: 60...69,
                                               background: "black", size: (150, 42))
            defer { terminal.stop() }
            func shown(_ screen: GraphicalTerminal.Histogram) -> Bool { RedGreenRedList.isShown(on: screen, minimumGreen: 2000) }
            let printed = dir.appendingPathComponent("printed").path
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: printed) })
            let sheet = terminal.wait(timeout: 20, shown)
            #expect(sheet.ok, "--print: the iTerm2 images are not on screen")
            try terminal.type("x")
            try terminal.key("Return")
            let grid = terminal.wait(timeout: 30, shown)
            if !grid.ok { try? terminal.screenshot(to: dir.deletingLastPathComponent().path + "/\(kind)-iterm2-failed.png") }
            #expect(grid.ok, "the grid's iTerm2 images are not on screen")
        }
    }
}
