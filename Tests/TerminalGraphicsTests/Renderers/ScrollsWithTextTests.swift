import Testing
@testable import TerminalGraphics

/// Which terminals move a renderer's output when the screen scrolls, forward (`SU`) and back (`SD`):
/// only then is a row scroll drawn as the exposed row instead of a repaint. Each rule was checked in
/// the real terminal (`LoadingAndResizeOracleTests`, `MoreTerminalsOracleTests`, `RandomKeysOracleTests`).
@Suite struct ScrollsWithTextTests {
    static let sixel = RendererSelection(kind: .sixel, tmuxPassthrough: false, reason: "test")

    @Test func footAndMltermMoveTheirSixelsBothWaysXtermOnlyForward() {
        for name in ["foot", "mlterm", "xterm(379)"] { #expect(Self.sixel.scrollsWithText(terminal: name), "\(name)") }
        #expect(Self.sixel.scrollsBackWithText(terminal: "foot"), "foot keeps each sixel at a grid row: a k costs the exposed row")
        #expect(Self.sixel.scrollsBackWithText(terminal: "mlterm"))
        #expect(!Self.sixel.scrollsBackWithText(terminal: "xterm(379)"), "xterm's record of sixels does not move back: a k repaints")
        #expect(!Self.sixel.scrollsBackWithText(terminal: nil))
    }

    @Test func nothingScrollsThroughTmuxPassthrough() {
        let wrapped = RendererSelection(kind: .sixel, tmuxPassthrough: true, reason: "test")
        #expect(!wrapped.scrollsWithText(terminal: "foot") && !wrapped.scrollsBackWithText(terminal: "foot"))
    }
}
