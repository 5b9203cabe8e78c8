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
        try RedGreenRedList.write(in: dir)
        let command = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --print --renderer sixel "
            + "--columns 3 list.txt; echo $? > exit.txt; sleep 600"
        try await Blocking.run {
            let xterm = try GraphicalTerminal(kind: .xterm, command: command, directory: "/tmp", displays: 60...69, background: "black", size: (150, 45))
            defer { xterm.stop() }
            let exit = dir.appendingPathComponent("exit.txt").path
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: exit) })
            // Half blocks cannot draw the list's colours; sixel registers can (within libsixel's 0-100 scale).
            let shown = xterm.wait(timeout: 20) { RedGreenRedList.isShown(on: $0) }
            if !shown.ok { try? xterm.screenshot(to: dir.deletingLastPathComponent().path + "/xterm-sixel-print-failed.png") }
            #expect(shown.ok, "the sixel images are not on screen")
        }
    }
}
