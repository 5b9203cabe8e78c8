import Foundation
import Testing
import TestSupport

/// Thumbnails that move (issue 32), in real terminals: the demo's last screen holds its three
/// animations (GIF, animated WebP, GIF); they play in the grid (two screenshots 200 ms apart
/// differ), and once `a` pauses them the settled screen equals the screen after Ctrl-L
/// (`ScreenOracle`). xterm (sixel within the byte budget), kitty 0.26 (the terminal plays them: the
/// gallery settles and writes nothing while they move), tmux 3.5a in xterm, and tmux inside kitty
/// 0.41 (Unicode placeholders over animations kitty plays).
@Suite(.endToEnd, EndToEnd.needs(.convert), .serialized)
struct AnimatedCellsGalleryTests {
    @Test(.timeLimit(.minutes(5)), arguments: ["xterm", "kitty", "tmux", "tmux-kitty-0.41"])
    func animatedCellsPlayAndSettleWhenPaused(_ which: String) async throws {
        let inRootTmux = which == "tmux-kitty-0.41"
        let inTmux = which == "tmux" || inRootTmux
        let kind: GraphicalTerminal.Kind = inRootTmux ? .kitty041 : (which == "kitty" ? .kitty : .xterm)
        let rootMissing = kind == .kitty041 && !DebianRoot.installed ? "no Debian 13 root with kitty 0.41 (scripts/setup --e2e)" : nil
        if let missing = rootMissing ?? GraphicalTerminal.missingTools(for: kind)
            ?? (inTmux && !TmuxReach.tmux35Installed ? "no tmux 3.5a (scripts/setup)" : nil) {
            print("skipped \(which): \(missing)")
            return
        }
        let socket = "sdg-animate-\(UUID().uuidString.prefix(8))"
        defer { if inTmux { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) } }
        try await ScreenOracle.check(kind, label: "animated-\(which)", arguments: "--demo --demo-rate 20M", settleTimeout: 90, wrap: { command in
            inTmux ? "\(inRootTmux ? "tmux" : TmuxReach.tmux35) -L \(socket) -f /dev/null new-session '\(command)' \\; set -g status off" : command
        }) { terminal, before in
            if inTmux {
                _ = GraphicalTerminal.waitUntil(timeout: 30) {
                    ((try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "capture-pane", "-p", "-t", "0"], timeout: 10).out) ?? "").contains("q quit")
                }
            }
            try terminal.key("G")
            // kitty plays the cells' animations itself: once their frames are uploaded the gallery
            // settles, and writes nothing more while they move.
            let settled = kind == .kitty ? terminal.settleLog?.waitSettled(keys: terminal.keysSent, timeout: 60) : nil
            if kind == .kitty { #expect(settled != nil, "kitty: the gallery never settled while its cells played") }
            // Playing: two screenshots 200 ms apart differ (once the last screen has loaded).
            let first = before + ".play-1.png", second = before + ".play-2.png"
            let moving = GraphicalTerminal.waitUntil(timeout: 60) {
                guard (try? terminal.screenshot(to: first)) != nil else { return false }
                Thread.sleep(forTimeInterval: 0.2)
                guard (try? terminal.screenshot(to: second)) != nil else { return false }
                return ((try? GraphicalTerminal.differingPixels(first, second)) ?? 0) > 200
            }
            ScreenOracle.keep([first, second])
            #expect(moving, "the animated cells never moved in \(which)")
            if let settled, let log = terminal.settleLog {
                let later = log.lines.filter { line in
                    line.hasPrefix("frame ") && (Int(line.split(separator: " ")[1]) ?? 0) > settled.frame
                }
                #expect(later.isEmpty, "kitty: frames written while the terminal played: \(later.prefix(3))")
            }
        }
    }
}
