import TerminalGraphics

/// Which cells the text of a frame overwrites. Curses opened on the private terminfo entry
/// (`NoScrollTerminfo`: no clear-to-end-of-line or -screen, no character insert or delete) writes only
/// between the first and last changed cell of a row, and skips a run of unchanged cells only when a
/// cursor move is cheaper than rewriting it: so the cells it may touch are the changed ones, with
/// short gaps between them filled. Only images under those cells are sent again (a neighbour's
/// progress bar on the same row no longer re-sends every image of the row).
extension FrameWriter {
    /// Unchanged runs up to this long count as rewritten: ncurses rewrites a run when that costs less
    /// than moving the cursor over it (a `CUP` is 6–8 bytes; rewriting costs a byte a cell, more with
    /// attributes), so 16 leaves a safe margin.
    static let rewrittenGap = 16

    /// The single-row rectangles `new`'s text may overwrite, given that the terminal shows `old`:
    /// nil when the sizes differ or there is no old grid (everything is written).
    public static func changedSpans(from old: CellGrid?, to new: CellGrid) -> [CellRect]? {
        guard let old, old.size == new.size else { return nil }
        var spans: [CellRect] = []
        let width = new.size.columns
        for row in 0..<new.size.rows {
            var start: Int?, end = 0
            for column in 0..<width where old[column, row] != new[column, row] {
                if let first = start, column - end - 1 > rewrittenGap {
                    spans.append(CellRect(column: first, row: row, columns: end - first + 1, rows: 1))
                    start = column
                } else if start == nil {
                    start = column
                }
                end = column
            }
            if let first = start { spans.append(CellRect(column: first, row: row, columns: end - first + 1, rows: 1)) }
        }
        return spans
    }
}
