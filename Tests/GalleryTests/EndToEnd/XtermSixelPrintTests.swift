import Foundation
import Testing
import TestSupport

/// `--print --renderer sixel` in a real xterm (VT340 mode, under Xvfb): the sheet is drawn as sixel
/// images, read back from a screenshot.
@Suite(.endToEnd, EndToEnd.needs(.xterm))
struct XtermSixelPrintTests {
    @Test(.timeLimit(.minutes(2)))
    func printWithSixelDrawsTheImages() async throws {
        let dir = try Fixtures.temporaryDirectory("xterm-sixel-print")
        defer { try? FileManager.default.removeItem(at: dir) }
        try TestPNG.solid(width: 96, height: 64, rgba: (200, 30, 90, 255)).write(to: dir.appendingPathComponent("red.png"))
        try TestPNG.solid(width: 96, height: 64, rgba: (30, 200, 90, 255)).write(to: dir.appendingPathComponent("green.png"))
        let list = ["red.png", "green.png", "red.png"].map { dir.appendingPathComponent($0).path }.joined(separator: "\n")
        try Data((list + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --print --renderer sixel "
            + "--columns 3 list.txt; echo $? > exit.txt; sleep 600"
        try await Blocking.run {
            let xterm = try GraphicalTerminal(kind: .xterm, command: command, directory: "/tmp", displays: 60...69, background: "black", size: (150, 45))
            defer { xterm.stop() }
            let exit = dir.appendingPathComponent("exit.txt").path
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: exit) })
            // Colours off the 256-colour palette (whose cube has 175 and 215, not 200): half blocks
            // cannot draw them, sixel registers can (within libsixel's 0-100 scale).
            func near(_ a: UInt8, _ b: Int) -> Bool { abs(Int(a) - b) <= 4 }
            let shown = xterm.wait(timeout: 20) { screen in
                let red = screen.count { near($0.r, 200) && near($0.g, 30) && near($0.b, 90) }
                let green = screen.count { near($0.r, 30) && near($0.g, 200) && near($0.b, 90) }
                return green > 500 && abs(red - 2 * green) * 10 < green
            }
            if !shown.ok { try? xterm.screenshot(to: dir.deletingLastPathComponent().path + "/xterm-sixel-print-failed.png") }
            #expect(shown.ok, "the sixel images are not on screen")
        }
    }
}
