import Foundation
import Testing
import TestSupport

/// The screen oracle (`ScreenOracle`) after what people do while images are still arriving: paging
/// back and forth through the throttled demo as it loads, then resizing the window smaller and larger
/// again with more keys in between. Once everything has settled, the screen must equal its repaint
/// after Ctrl-L, in xterm and mlterm (sixel) and kitty (kitty graphics).
@Suite(.endToEnd, EndToEnd.needs(), .serialized)
struct LoadingAndResizeOracleTests {
    /// Resizes the terminal's window (no window manager: the X window itself), as a user's drag does.
    static func resize(_ terminal: GraphicalTerminal, width: Int, height: Int) throws {
        _ = try terminal.xdotool(["search", "--onlyvisible", "--name", ".", "windowsize", "%@", "\(width)", "\(height)"])
    }

    /// Keys while the demo loads (each image throttled to 300 KB/s), a resize smaller, keys, a resize larger.
    static func pageWhileLoadingThenResize(_ terminal: GraphicalTerminal, _ scratch: String) throws {
        try terminal.xdotool(["key", "--delay", "200", "Next", "Next", "Prior", "j", "j", "Next", "k", "Prior"])
        _ = try terminal.settledScreenshot(to: scratch, interval: 1.0)
        try resize(terminal, width: 800, height: 540)
        _ = try terminal.settledScreenshot(to: scratch, interval: 0.7, newFrame: true)
        try terminal.xdotool(["key", "--delay", "150", "Next", "j", "j"])
        _ = try terminal.settledScreenshot(to: scratch, interval: 0.7)
        try resize(terminal, width: 1180, height: 760)
        _ = try terminal.settledScreenshot(to: scratch, interval: 0.7, newFrame: true)
        try terminal.xdotool(["key", "--delay", "150", "k", "Prior"])
    }

    static func check(_ kind: GraphicalTerminal.Kind) async throws {
        try await ScreenOracle.check(kind, label: "loading-resize", arguments: "--demo --demo-rate 300k", settleTimeout: 90,
                                     inspect: { shot in
            // Not an empty screen: the demo's images are there.
            let colours = try EndToEnd.run("/usr/bin/convert", [shot, "-crop", "1100x700+0+0", "+repage", "-colors", "64", "-unique-colors", "-format", "%w", "info:"])
            #expect((Int(colours.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20, "no images on screen")
        }, actions: pageWhileLoadingThenResize)
    }

    /// The blank-cells report: paging back and forth while the throttled demo (photos, PNG, WebP of
    /// mixed sizes) loads, then row scrolling both ways once it settled. xterm's scroll down does not
    /// move its record of sixels: 5–6 cells of a row stayed blank until Ctrl-L (2 of 3 runs).
    static func pageWhileLoadingThenScrollRows(_ terminal: GraphicalTerminal, _ scratch: String) throws {
        try terminal.xdotool(["key", "--delay", "150", "Next", "Next", "Prior", "Next", "Right", "Right", "Down", "Next"])
        _ = try terminal.settledScreenshot(to: scratch, interval: 1.0, timeout: 90)
        try terminal.xdotool(["key", "--delay", "300", "k", "k", "k", "k", "k", "k", "j", "j", "k", "k", "k", "k"])
    }

    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func pagingWhileLoadingThenScrollingRowsLeavesNoBlankCellInXterm() async throws {
        try await ScreenOracle.check(.xterm, label: "loading-rows", arguments: "--demo --demo-rate 300k", settleTimeout: 90,
                                     actions: Self.pageWhileLoadingThenScrollRows)
    }

    /// A desktop switch unmaps the window and maps it again: xterm brought back 8 of 32 sixels from its
    /// own record. The window gaining focus (focus reports) repaints everything.
    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func theWindowUnmappedAndMappedAgainShowsEveryImageInXterm() async throws {
        try await ScreenOracle.check(.xterm, label: "unmap-map", arguments: "--columns 10 list.txt",
                                     prepare: { try await ScreenOracle.mixedList(in: $0, count: 60) }) { terminal, scratch in
            _ = try terminal.settledScreenshot(to: scratch, interval: 1.0)
            _ = try terminal.xdotool(["search", "--onlyvisible", "--name", ".", "windowunmap", "--sync", "%@"])
            _ = try terminal.xdotool(["search", "--name", ".", "windowmap", "--sync", "%@", "windowfocus", "%@"])
            _ = try terminal.settledScreenshot(to: scratch, newFrame: true)  // the repaint on focus
        }
    }

    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "needs xterm"))
    func pagingWhileLoadingAndResizingLeaveNothingBehindInXterm() async throws { try await Self.check(.xterm) }

    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .mlterm) == nil, "needs mlterm"))
    func pagingWhileLoadingAndResizingLeaveNothingBehindInMlterm() async throws { try await Self.check(.mlterm) }

    @Test(.timeLimit(.minutes(4)), .enabled(if: GraphicalTerminal.missingTools(for: .kitty) == nil, "needs kitty"))
    func pagingWhileLoadingAndResizingLeaveNothingBehindInKitty() async throws { try await Self.check(.kitty) }
}
