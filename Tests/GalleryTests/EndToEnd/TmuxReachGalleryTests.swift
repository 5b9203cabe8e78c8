import Foundation
import Testing
import TerminalGraphics
import TestSupport

/// tmux done right: the probe never renames the pane (no raw kitty query inside tmux), tmux 3.5a's
/// own sixel is used (raw, not wrapped) in xterm and foot for `--print` and the grid. tmux 3.5a comes from
/// scripts/setup (bookworm-backports, extracted into `TmuxReach.tmux35`); its tests skip without it.
@Suite(.endToEnd, EndToEnd.needs(.tmux))
struct TmuxReachGalleryTests {
    @Test(.timeLimit(.minutes(1)), arguments: TmuxReach.versions)
    func theProbeLeavesThePaneTitleAlone(tmux: String) async throws {
        let command = "\(EndToEnd.binary.path) --probe; echo PROBED; sleep 30"
        let session = try await TmuxSession.start(columns: 120, rows: 30, command: command, binary: tmux)
        let before = await session.tmux(["display-message", "-p", "-t", "0", "#{pane_title}"])
        let probed = await session.wait { $0.contains("PROBED") }
        #expect(probed.ok, "no probe report: \(probed.screen)")
        let title = await session.tmux(["display-message", "-p", "-t", "0", "#{pane_title}"])
        #expect(!title.contains("Gi=") && !title.contains("AAAA"), "the probe renamed the pane: \(title)")
        #expect(title == before)
        #expect(probed.screen.contains("tmux:                yes, 3."))
    }

    /// A detached tmux 3.5a has no outer terminal to draw a sixel in (its DA1 still lists 4): the
    /// probe says tmux draws no sixel here and why, and picks text (issue 29: it chose sixel, and
    /// tmux drew "SIXEL IMAGE" text boxes in every terminal without sixel).
    @Test(.timeLimit(.minutes(1)), .enabled(if: TmuxReach.tmux35Installed, "tmux 3.5a is not installed (scripts/setup)"))
    func tmux35WithoutASixelClientReportsWhy() async throws {
        let session = try await TmuxSession.start(
            columns: 120, rows: 30, command: "\(EndToEnd.binary.path) --probe; echo PROBED; sleep 30", binary: TmuxReach.tmux35)
        let probed = await session.wait { $0.contains("PROBED") }
        let screen = probed.screen.replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("tmux:                yes, 3.5a, draws no sixel here"), "\(probed.screen)")
        #expect(screen.contains("but the outer terminal draws no sixel") || screen.contains("draws no sixel (client_termfeatures)"), "\(probed.screen)")
        #expect(probed.screen.contains("renderer:            half-block"), "\(probed.screen)")
    }

    /// xterm or foot (sixel) → tmux 3.5a → `sdgallery --print`, then the gallery: every image is drawn
    /// by tmux's own sixel, in its own cell (colours off the 256-colour palette: not half blocks), and
    /// the pane holds no half-block characters.
    @Test(.timeLimit(.minutes(3)),
          .enabled(if: TmuxReach.tmux35Installed, "tmux 3.5a is not installed (scripts/setup)"),
          arguments: TmuxReach.sixelTerminals)
    func tmux35ShowsSixelInPrintAndGrid(in kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let dir = try Fixtures.temporaryDirectory("tmux35-\(kind)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RedGreenRedList.write(in: dir)
        let socket = "sdg-reach-\(UUID().uuidString.prefix(8))"
        let sdgallery = "XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path)"
        let inner = "cd \(dir.path) && \(sdgallery) --print --columns 3 list.txt 2> print-err.txt; touch printed; read x; "
            + "\(sdgallery) --columns 3 list.txt; sleep 600"
        let command = "\(TmuxReach.tmux35) -L \(socket) -f /dev/null new-session '\(inner)'"
        defer { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) }
        try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: kind, command: command, directory: "/tmp", displays: 70...79,
                                              background: "black", size: (150, 45))
            defer { terminal.stop() }
            func shown(_ screen: GraphicalTerminal.Histogram) -> Bool { RedGreenRedList.isShown(on: screen) }
            let printed = dir.appendingPathComponent("printed").path
            #expect(GraphicalTerminal.waitUntil(timeout: 40) { FileManager.default.fileExists(atPath: printed) })
            let sheet = terminal.wait(timeout: 20, shown)
            if !sheet.ok { try? terminal.screenshot(to: dir.deletingLastPathComponent().path + "/tmux35-\(kind)-print-failed.png") }
            #expect(sheet.ok, "--print: the sixel images are not on screen")
            let pane = (try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "capture-pane", "-p", "-t", "0"], timeout: 10).out) ?? ""
            #expect(!pane.contains("▀") && !pane.contains("▄"), "half blocks in the pane: \(pane)")
            try terminal.type("x")
            try terminal.key("Return")
            let grid = terminal.wait(timeout: 30) { screen in
                shown(screen)
                    && (try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "capture-pane", "-p", "-t", "0"], timeout: 10).out)?
                        .contains("· grid") == true
            }
            if !grid.ok { try? terminal.screenshot(to: dir.deletingLastPathComponent().path + "/tmux35-\(kind)-grid-failed.png") }
            #expect(grid.ok, "the grid's sixel images are not on screen")
        }
    }

    /// tmux 3.5a's own sixel in xterm and in foot while paging and moving: once settled, the screen
    /// equals the one after Ctrl-L (a full repaint); the grid holds at most the 9 images tmux keeps
    /// (with 15 cells, a repaint showed only the last 9: `TmuxImages`); and tmux does not stretch the
    /// 4:3 images into their caption rows (it stretches a sixel to the cells its banded height covers).
    @Test(.timeLimit(.minutes(4)),
          .enabled(if: TmuxReach.tmux35Installed, "tmux 3.5a is not installed (scripts/setup)"),
          arguments: TmuxReach.sixelTerminals)
    func tmux35SettledEqualsRepaint(in kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let socket = "sdg-reach-\(UUID().uuidString.prefix(8))"
        defer { _ = try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "kill-server"], timeout: 10) }
        // (In foot, one run in three or so left a 392×6 px strip of the loading cell's fill under the
        // first image, 2,352 px: tmux leaves the pixels below a shorter sixel undrawn. Fixed by
        // `SixelRenderer` filling the image's last cell row: 0 in 5 runs since.)
        try await ScreenOracle.afterKeys(kind, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]],
                                         label: "tmux35-paging", inspect: { shot in
            let red = try TmuxReach.redImages(in: shot)
            #expect(!red.isEmpty, "no 4:3 red image on screen")
            for (width, height) in red {
                #expect(abs(Double(width) / Double(height) - 4.0 / 3.0) < 0.04, "a 4:3 image shows as \(width)×\(height)")
            }
            let pane = (try? ChildProcess.run(TmuxReach.tmux35, ["-L", socket, "capture-pane", "-p", "-t", "0"], timeout: 10).out) ?? ""
            let captions = pane.split(separator: "\n").flatMap { $0.split(separator: " ").filter { $0.hasPrefix("Item") } }
            #expect(captions.count <= TmuxImages.knownLimit, "\(captions.count) cells on screen: \(pane)")
        }, wrap: {
            // No status line: its clock would change the screen.
            "\(TmuxReach.tmux35) -L \(socket) -f /dev/null new-session '\($0)' \\; set -g status off"
        })
    }
}

extension TmuxReachGalleryTests {
    /// Debian's tmux 3.3a (no sixel of its own: half blocks, with the reason on the status line) in
    /// xterm, through the same keys: settled == Ctrl-L.
    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func tmux33SettledEqualsRepaint() async throws {
        let socket = "sdg-reach-\(UUID().uuidString.prefix(8))"
        defer { _ = try? ChildProcess.run("/usr/bin/tmux", ["-L", socket, "kill-server"], timeout: 10) }
        try await ScreenOracle.afterKeys(.xterm, keys: [["Next", "Next", "Prior"], ["j", "j", "j"], ["k", "k", "k", "k", "k"]],
                                         label: "tmux33-paging", inspect: { shot in
            let red = try TmuxReach.redImages(in: shot)
            #expect(!red.isEmpty, "no red image on screen")
        }, wrap: {
            "/usr/bin/tmux -L \(socket) -f /dev/null new-session '\($0)' \\; set -g status off"
        })
    }
}

/// The tmux versions the reach tests run under.
enum TmuxReach {
    /// tmux 3.5a as scripts/setup installs it (a wrapper that finds its libjemalloc).
    static let tmux35 = ProcessInfo.processInfo.environment["SDG_TMUX35"] ?? "/opt/sdgallery-tests/tmux-3.5a/tmux"
    /// Whether tmux 3.5a is there.
    static var tmux35Installed: Bool { FileManager.default.isExecutableFile(atPath: tmux35) }
    /// The sixel terminals tmux 3.5a is tried in.
    static let sixelTerminals: [GraphicalTerminal.Kind] = [.xterm, .foot]
    /// Debian's tmux, and tmux 3.5a when installed.
    static var versions: [String] { ["/usr/bin/tmux"] + (tmux35Installed ? [tmux35] : []) }

    /// The sizes (width, height) of the red (#e01010) regions of a screenshot larger than 20×20 px.
    static func redImages(in shot: String) throws -> [(Int, Int)] {
        let out = try EndToEnd.run("/usr/bin/convert", [shot, "-fuzz", "10%", "-fill", "black", "+opaque", "#e01010", "-fill", "white",
                                                        "-opaque", "#e01010", "-define", "connected-components:verbose=true",
                                                        "-connected-components", "8", "null:"]).out
        // "  3: 120x90+4+2 63.5,46.5 10800 gray(255)" (or srgb(255,255,255)): a white (red) region.
        return out.split(separator: "\n").compactMap { line -> (Int, Int)? in
            let fields = line.split(separator: " ")
            guard fields.count >= 5, fields.last.map({ $0.contains("255") && !$0.contains("(0") }) == true else { return nil }
            let size = fields[1].split(separator: "+")[0].split(separator: "x").compactMap { Int($0) }
            guard size.count == 2, size[0] > 20, size[1] > 20 else { return nil }
            return (size[0], size[1])
        }
    }
}
