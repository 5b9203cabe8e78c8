import TerminalGraphics

/// The rules of showing a frame on a terminal, without I/O: given the frame and what the terminal
/// showed before, the bytes that go before the text, the text's starting point (what the terminal
/// shows under it, scrolled) and the bytes after it. `CursesScreen` writes them around curses'
/// update; the tests' model screen writes them around the text it makes itself, so both follow
/// one set of rules.
///
/// The order, per frame: image data that shows nothing by itself (kitty uploads) outside the
/// synchronized update unless the frame frees data or clears the screen; then, inside it, the
/// scroll, the released images, the erasures; then the text; then (when curses may have moved
/// rows itself) the blank cells erased, the placements and the end of the update.
struct FramePresenter {
    /// What to write for one frame, in order, around the text.
    struct Presentation {
        /// Written first, outside the synchronized update: uploads that show nothing yet.
        var uploads: [UInt8] = []
        /// The start of the update: the scroll, released images and erasures.
        var beforeText: [UInt8] = []
        /// The scroll the terminal does (`beforeText` holds its bytes); the text's record of the
        /// screen must follow it.
        var scroll: FrameScroll?
        /// What the terminal shows under the text once `beforeText` is written (the previous grid,
        /// scrolled); nil when unknown: every cell is written.
        var previous: CellGrid?
        /// After the text: the placements and the end of the update.
        var afterText: [UInt8] = []
    }

    /// How this terminal scrolls, erases and covers (`TerminalProfile.strategy`).
    var strategy: TerminalStrategy
    /// Whether only this program scrolls the terminal (curses without scroll capabilities,
    /// `NoScrollTerminfo`); otherwise curses may move rows itself.
    let ownsScrolling: Bool
    private(set) var writer: FrameWriter
    private var lastGrid: CellGrid?

    init(strategy: TerminalStrategy, ownsScrolling: Bool = true) {
        writer = FrameWriter()
        self.strategy = strategy
        self.ownsScrolling = ownsScrolling
    }

    /// The bytes of `frame` on a terminal of `size`. `scrollText` is asked to move the text's record
    /// of the screen for a scroll about to be done (false: no scroll this frame).
    mutating func present(_ frame: Frame, repaintAll: Bool, terminal size: CellSize,
                          scrollText: (FrameScroll) -> Bool = { _ in true }) -> Presentation {
        let grid = frame.grid
        var out = Presentation()
        out.previous = (lastGrid?.size == grid.size && !repaintAll) ? lastGrid : nil
        // The grid scrolled: the terminal scrolls its region (moving the images with the text) and
        // only what the scroll exposed or changed is drawn.
        var scrollBytes: [UInt8] = []
        if let scroll = frame.scroll, scroll.isUseful, strategy.scrollsImages(lines: scroll.lines), ownsScrolling,
           let old = out.previous, scroll.rows.lowerBound >= 0, scroll.rows.upperBound <= min(size.rows, grid.size.rows),
           scrollText(scroll) {
            scrollBytes = writer.scroll(scroll, terminal: size)
            out.previous = old.scrolled(scroll)
            out.scroll = scroll
        }
        // A full repaint clears the screen, and kitty drops what it showed with it: place and upload
        // everything again.
        if repaintAll { writer.reset() }
        let released = writer.release(frame.released)
        // The terminal's own animations (kitty) stop or play again.
        let animationControl = writer.setAnimationsPlay(frame.animationsPlay)
        // Curses with the terminal's scroll capabilities (no private terminfo entry could be made):
        // when rows of text moved it may scroll them, and the terminal moves the images on them too:
        // then every blank cell is erased after the text and every image written again.
        let moved = !ownsScrolling && (out.previous.map { FrameWriter.rowsMoved(from: $0, to: grid) } ?? false)
        let plan = writer.plan(frame.placements, terminal: size, repaintAll: repaintAll || out.previous == nil || moved,
                               changedRows: FrameWriter.changedRows(from: out.previous, to: grid),
                               changedSpans: ownsScrolling && strategy.textOverwritesOnlyItsCells
                                   ? FrameWriter.changedSpans(from: out.previous, to: grid) : nil,
                               coverFirst: strategy.coversBeforePlacing)
        lastGrid = grid
        // Kitty's `d=I` and its screen clear free every unplaced image, uploads included: then the
        // uploads follow inside the update.
        out.uploads = released.isEmpty && !repaintAll ? writer.uploads(for: plan) : []
        out.beforeText = strategy.frameStart + scrollBytes + released + animationControl
            + FrameWriter.clearing(plan.cleared, erasing: plan.erased, strategy: strategy)
        if moved { out.afterText = FrameWriter.clearing(FrameWriter.blankRuns(of: grid, outside: []), strategy: strategy) }
        out.afterText += writer.bytes(for: plan) + strategy.frameEnd  // the uploads not sent early, then the placements
        return out
    }

    /// Forgets what the terminal shows (a resize, a new screen): the next frame is drawn whole.
    mutating func reset() {
        lastGrid = nil
        writer.reset()
    }

    /// Bytes that take everything of ours off the terminal (kitty images); the writer forgets them.
    mutating func closingBytes() -> [UInt8] { writer.closingBytes() }
}
