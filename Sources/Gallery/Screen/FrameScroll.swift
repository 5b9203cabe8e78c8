import TerminalGraphics

/// Rows `rows` of the screen moved up by `lines` (down when negative) since the previous frame.
public struct FrameScroll: Sendable, Hashable {
    /// The scrolled rows (the scroll region).
    public var rows: Range<Int>
    /// Lines moved: positive when the content moved up (the view went down the list).
    public var lines: Int

    /// Creates a scroll.
    public init(rows: Range<Int>, lines: Int) {
        self.rows = rows
        self.lines = lines
    }

    /// Whether it moves anything: `0 < |lines| < rows.count`.
    public var isUseful: Bool { lines != 0 && abs(lines) < rows.count }
}
