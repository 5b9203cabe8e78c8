import Foundation
import Testing
import TerminalGraphics
import TestSupport

extension TmuxReachGalleryTests {
    /// Twelve colours off the 256-colour palette's cube, one per image.
    static let sheetColours: [(UInt8, UInt8, UInt8)] = [
        (200, 30, 90), (30, 200, 90), (30, 90, 200), (200, 200, 30), (200, 30, 200), (30, 200, 200),
        (120, 60, 30), (60, 120, 30), (30, 60, 120), (120, 30, 60), (60, 30, 120), (30, 120, 60),
    ]

    /// xterm → tmux 3.5a → `sdgallery --print` of 12 images, 6 to a row; then tmux draws the pane
    /// again (another window, and back): every image is still there. tmux keeps 9 sixel images, and
    /// a sheet of one sixel per entry lost its first 3 on the redraw; now each row is one sixel.
    @Test(.timeLimit(.minutes(3)),
          .enabled(if: TmuxReach.tmux35Installed, "tmux 3.5a is not installed (scripts/setup)"),
          .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func tmux35RedrawsEveryImageOfAPrintedSheet() async throws {
        let dir = try Fixtures.temporaryDirectory("tmux35-sheet")
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (i, rgb) in Self.sheetColours.enumerated() {
            let file = dir.appendingPathComponent("c\(i).png")
            try TestPNG.solid(width: 96, height: 64, rgba: (rgb.0, rgb.1, rgb.2, 255)).write(to: file)
            paths.append(file.path)
        }
        try Data((paths.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let socket = "sdg-reach-\(UUID().uuidString.prefix(8))"
        let tmux: @Sendable ([String]) -> Void = { arguments in _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket] + arguments, timeout: 10) }
        let inner = "cd \(dir.path) && XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --print --columns 6 list.txt 2> print-err.txt; "
            + "touch printed; sleep 600"
        let command = "\(TmuxReach.tmux35) -L \(socket) -f /dev/null new-session '\(inner)' \\; set -g status off"
        defer { tmux(["kill-server"]) }
        try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: .xterm, command: command, directory: "/tmp", displays: 70...79,
                                                 background: "black", size: (150, 45))
            defer { terminal.stop() }
            func shown(_ screen: GraphicalTerminal.Histogram) -> [Bool] {
                Self.sheetColours.map { rgb in
                    screen.count { abs(Int($0.r) - Int(rgb.0)) <= 4 && abs(Int($0.g) - Int(rgb.1)) <= 4 && abs(Int($0.b) - Int(rgb.2)) <= 4 } > 300
                }
            }
            func keep(_ name: String) { try? terminal.screenshot(to: dir.deletingLastPathComponent().path + "/tmux35-sheet-\(name).png") }
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: dir.appendingPathComponent("printed").path) })
            let printed = terminal.wait(timeout: 20) { !shown($0).contains(false) }
            if !printed.ok { keep("printed-failed") }
            if let dir = ProcessInfo.processInfo.environment["SDG_KEEP_SHOTS"] { try? terminal.screenshot(to: dir + "/tmux35-sheet-printed.png") }
            #expect(printed.ok, "the sheet's images are not all on screen")
            // Another window clears the screen; coming back, tmux draws the pane from the images it kept.
            tmux(["new-window", "sleep 600"])
            let cleared = terminal.wait(timeout: 20) { !shown($0).contains(true) }
            #expect(cleared.ok, "the other window still shows images")
            tmux(["select-window", "-t", ":0"])
            let redrawn = terminal.wait(timeout: 20) { !shown($0).contains(false) }
            if !redrawn.ok { keep("redrawn-failed") }
            if let dir = ProcessInfo.processInfo.environment["SDG_KEEP_SHOTS"] { try? terminal.screenshot(to: dir + "/tmux35-sheet-redrawn.png") }
            let missing = redrawn.last.map { screen in zip(0..., shown(screen)).filter { !$0.1 }.map(\.0) } ?? []
            #expect(redrawn.ok, "after tmux redrew the pane, images \(missing) are gone")
            let errors = (try? String(contentsOf: dir.appendingPathComponent("print-err.txt"), encoding: .utf8)) ?? ""
            #expect(!errors.contains("vanish"), "the sheet still warned: \(errors)")
        }
    }
}
