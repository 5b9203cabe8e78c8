import Foundation
import Testing
import TestSupport

/// Konsole 22.12, foot 1.13 (on weston) and GNOME Terminal 3.46 (VTE 0.70), as a user meets them:
/// the renderer the probe picks there (Konsole: kitty graphics, which `RendererSelection` prefers to
/// its sixel; foot: sixel; GNOME Terminal: half blocks, the cell size from CSI 14t), and the screen
/// oracle after paging while the throttled demo loads, then scrolling rows (settled == Ctrl-L).
@Suite(.endToEnd, EndToEnd.needs(.convert, .script), .serialized)
struct MoreTerminalsOracleTests {
    static let kinds: [GraphicalTerminal.Kind] = [.konsole, .foot, .gnomeTerminal, .kitty041]

    /// Defects these terminals show that are not theirs (a report each). None now: GNOME Terminal's
    /// blank half-block cells were ncurses' updates with `bce` (fixed in `NoScrollTerminfo`).
    static let knownIssues: [GraphicalTerminal.Kind: String] = [:]

    /// The half-block defect GNOME Terminal showed, in xterm with `--renderer blocks`: random-keys
    /// seed 1 (through the full view and back, then to the end) left cells 64, 65, 68, 69, 70 and 73
    /// blank until Ctrl-L (158,078 px; in GNOME Terminal 108,495 px, twice alike). The cause was the
    /// terminfo entry's `bce`: ncurses' updates with it left cells blank (the same keys in tmux with
    /// TERM=xterm-256color: 277–398 cells off; with a copy of that entry without `bce`: 0), and
    /// `NoScrollTerminfo` now drops it.
    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func halfBlocksThroughTheFullViewToTheEndShowEveryImageInXterm() async throws {
        let keys = "Down Left Down l j Down k Left h Prior j Next Up g G Return p q Left Next Up G".split(separator: " ").map(String.init)
        try await ScreenOracle.check(.xterm, label: "blocks-seed-1", arguments: "--demo --demo-rate 300k --renderer blocks",
                                     settleTimeout: 90) { terminal, _ in
            try terminal.xdotool(["key", "--delay", "150"] + keys)
        }
    }

    /// What `--probe` must say in each terminal.
    static let expected: [GraphicalTerminal.Kind: (renderer: String, cellSize: String)] = [
        .xterm: ("renderer:            sixel\n", "("),
        .mlterm: ("renderer:            sixel\n", "("),
        .kitty: ("renderer:            kitty\n", "("),
        .konsole: ("renderer:            kitty\n", "(TIOCGWINSZ)"),
        .foot: ("renderer:            sixel\n", "(TIOCGWINSZ)"),
        .gnomeTerminal: ("renderer:            half-block (truecolor)\n", "(CSI 14 t:"),
        .kitty041: ("renderer:            kitty\n", "("),
    ]

    /// In every terminal of the harness (the three older ones too: one table of what the probe sees).
    @Test(.timeLimit(.minutes(3)), arguments: GraphicalTerminal.Kind.allCases)
    func theProbeChoosesTheTerminalsBestRenderer(kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let dir = try Fixtures.temporaryDirectory("probe-\(kind)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("probe.txt").path
        // script(1) keeps the probe on a terminal (the terminal's replies pass through it) and keeps its report.
        let command = "script -q -f -c '\(EndToEnd.binary.path) --probe' \(report); touch probed; sleep 60"
        let text = try await Blocking.run { () throws -> String in
            let terminal = try GraphicalTerminal(kind: kind, command: command, directory: dir.path, displays: 60...69, size: (120, 36))
            defer { terminal.stop() }
            let probed = dir.appendingPathComponent("probed").path
            #expect(GraphicalTerminal.waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: probed) })
            return (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
        let summary = lines.split(separator: "\n").filter { $0.contains("terminal:") || $0.hasPrefix("probe:") || $0.hasPrefix("cell size:") || $0.hasPrefix("renderer:") }
        print("probe in \(kind): \(summary.joined(separator: " | "))")
        let want = try #require(Self.expected[kind])
        #expect(lines.contains(want.renderer), "\(kind): \(lines)")
        #expect(lines.contains("probe:               answered"), "\(kind): \(lines)")
        #expect(lines.split(separator: "\n").contains { $0.hasPrefix("cell size:") && $0.contains(want.cellSize) }, "\(kind): \(lines)")
    }

    /// The blank-cells sequence of `LoadingAndResizeOracleTests` (paging while the demo loads at
    /// 300 KB/s per image, then rows both ways): settled == Ctrl-L, and the demo's images are on screen.
    @Test(.timeLimit(.minutes(5)), arguments: kinds)
    func pagingWhileLoadingThenScrollingRowsSettlesAsARepaint(kind: GraphicalTerminal.Kind) async throws {
        if let missing = GraphicalTerminal.missingTools(for: kind) { print("skipped \(kind): \(missing)"); return }
        let started = Date()
        let run = {
            try await ScreenOracle.check(kind, label: "loading-rows", arguments: "--demo --demo-rate 300k", settleTimeout: 90,
                                         inspect: { try Self.expectImages(in: $0, kind) },
                                         actions: LoadingAndResizeOracleTests.pageWhileLoadingThenScrollRows)
        }
        if let known = Self.knownIssues[kind] {
            await withKnownIssue(Comment(rawValue: known), isIntermittent: true) { try await run() }
        } else {
            try await run()
        }
        print("oracle in \(kind): \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// Konsole keeps a sixel as a placement over the text that text never erases (it goes only when
    /// later placements cover it whole): a forced `--renderer sixel` left strips of replaced images
    /// (7,751 px off the repaint). The frame writer deletes the old placements with kitty's delete
    /// by cell, which Konsole applies to its sixel placements too.
    @Test(.timeLimit(.minutes(5)), .enabled(if: GraphicalTerminal.missingTools(for: .konsole) == nil, "needs Konsole"))
    ///
    /// Known issue (2026-11-28, 4 runs of 4 here, the binary of main before this session alike): the
    /// settled screen showed "08-rocket.jp" where the repaint shows "08-rocket.jpg" (48 px); in both,
    /// Konsole hides the rest of the captions "01…" and "02…" under the astronaut sixels above them.
    /// Konsole hides text under every cell a sixel placement touches, and a placement whose last band
    /// reaches into the caption row hides it; which cells depends on the order of placements. Not
    /// the forced-sixel erasure this test was written for (that one is 7,751 px).
    func forcedSixelInKonsoleSettlesAsARepaint() async throws {
        // Only a difference of a few caption cells is the known issue; the stale strips (thousands of
        // pixels), an unsettled screen or missing images still fail.
        try await withKnownIssue("Konsole hides caption cells under sixel placements that reach into the caption row", isIntermittent: true) {
            try await ScreenOracle.check(.konsole, label: "forced-sixel", arguments: "--demo --demo-rate 300k --renderer sixel",
                                         settleTimeout: 90, inspect: { try Self.expectImages(in: $0, .konsole) },
                                         actions: LoadingAndResizeOracleTests.pageWhileLoadingThenScrollRows)
        } matching: { issue in
            let text = String(describing: issue)
            guard let range = text.range(of: "differing → ") else { return false }
            let count = Int(text[range.upperBound...].prefix { $0.isNumber }) ?? .max
            return count > 0 && count < 400
        }
    }

    /// Expects the demo's images on `shot` (more than 20 of 64 colours in the grid's part).
    static func expectImages(in shot: String, _ kind: GraphicalTerminal.Kind) throws {
        let colours = try EndToEnd.run("/usr/bin/convert", [shot, "-crop", "1100x700+0+0", "+repage", "-colors", "64", "-unique-colors", "-format", "%w", "info:"])
        #expect((Int(colours.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20, "no images on screen in \(kind)")
    }
}
