import Foundation
import Testing
import TestSupport

/// xterm drops a sixel bigger than its graphics limit whole (`maxGraphicSize`, 1000×1000 by default).
/// The probe asks the limit (XTSMGRAPHICS) and the full view of a landscape image wider than that
/// is scaled to fit: it shows.
@Suite(.endToEnd, EndToEnd.needs(.xterm))
struct XtermGraphicsLimitGalleryTests {
    @Test(.timeLimit(.minutes(2)))
    func theFullViewOfAWideImageFitsXtermsGraphicsLimit() async throws {
        let dir = try Fixtures.temporaryDirectory("xterm-graphics-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 2:1, a colour off the 256-colour palette; 150 columns of xterm's cells are over 1000 px.
        try TestPNG.solid(width: 1600, height: 800, rgba: (200, 30, 90, 255)).write(to: dir.appendingPathComponent("wide.png"))
        try Data((dir.appendingPathComponent("wide.png").path + " Wide\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) list.txt; sleep 600"
        try await Blocking.run {
            let xterm = try GraphicalTerminal(kind: .xterm, command: command, directory: "/tmp", displays: 80...89,
                                              background: "black", size: (150, 45))
            defer { xterm.stop() }
            func near(_ a: UInt8, _ b: Int) -> Bool { abs(Int(a) - b) <= 4 }
            func red(_ screen: GraphicalTerminal.Histogram) -> Int {
                screen.count { near($0.r, 200) && near($0.g, 30) && near($0.b, 90) }
            }
            let thumbnail = xterm.wait(timeout: 30) { red($0) > 2000 }
            #expect(thumbnail.ok, "the grid's thumbnail is not on screen")
            let small = thumbnail.last.map(red) ?? 0
            try xterm.key("Return")
            // The full view: at least 1000×400 px of the image (it fits 1000 px wide, 2:1).
            let full = xterm.wait(timeout: 30) { red($0) > max(400_000, 4 * small) }
            if !full.ok { try? xterm.screenshot(to: dir.deletingLastPathComponent().path + "/xterm-graphics-limit-failed.png") }
            #expect(full.ok, "the full view is blank: \(full.last.map(red) ?? -1) image pixels on screen")
        }
    }
}
