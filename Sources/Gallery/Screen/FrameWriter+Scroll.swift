import TerminalGraphics

/// Scrolling that costs what changed: when the grid moved by whole lines, the terminal moves what it
/// shows (a scroll region: `DECSTBM`, `SU`/`SD`) and only the exposed rows are drawn. The writer's
/// record of what is on screen moves with it, so unchanged images are not sent again.
extension FrameWriter {
    /// The bytes that scroll `scroll.rows` of the terminal by `scroll.lines` (attributes off first, so
    /// the exposed lines take the default background; cursor saved and restored around it, as
    /// `DECSTBM` homes it), and the shown placements moved to match. A placement that leaves the
    /// region or straddles its edge counts as gone: its erase bytes (kitty) are part of the result;
    /// one without erase bytes (text, sixel: text erases them) stays recorded as the part still
    /// visible in the region, so the next plan erases it (a row of half-blocks scrolled under the
    /// grid's last row stayed there).
    public mutating func scroll(_ scroll: FrameScroll, terminal: CellSize) -> [UInt8] {
        guard scroll.isUseful else { return [] }
        let top = scroll.rows.lowerBound, bottom = scroll.rows.upperBound
        // A region that is the whole screen is scrolled without margins (`terminal` rows): xterm moves
        // sixel pixels only when the whole screen scrolls.
        let margins = top > 0 || bottom < terminal.rows
        var out = EscapeSequence.saveCursor + EscapeSequence.reset
        if margins { out += EscapeSequence.scrollRegion(top: top + 1, bottom: bottom) }
        out += EscapeSequence.scroll(lines: scroll.lines)
        if margins { out += EscapeSequence.resetScrollRegion }
        out += EscapeSequence.restoreCursor
        var kept: [BitmapPlacement] = []
        for placement in shown {
            let inside = placement.rect.row >= top && placement.rect.maxRow <= bottom
            var moved = placement
            moved.rect.row -= scroll.lines
            if inside && moved.rect.row >= top && moved.rect.maxRow <= bottom {
                kept.append(moved)
            } else if inside || placement.rect.intersects(CellRect(column: 0, row: top, columns: Int.max / 2, rows: bottom - top)) {
                let visibleTop = max(moved.rect.row, top), visibleBottom = min(moved.rect.maxRow, bottom)
                if placement.image.erase.isEmpty, visibleTop < visibleBottom {
                    moved.rect = CellRect(column: moved.rect.column, row: visibleTop, columns: moved.rect.columns, rows: visibleBottom - visibleTop)
                    kept.append(moved)
                } else {
                    out += placement.image.erase
                }
            } else {
                kept.append(placement)
            }
        }
        shown = kept
        return out
    }
}

extension CellGrid {
    /// This grid as the terminal shows it after `scroll`: the rows of the region moved, the exposed
    /// ones blank.
    public func scrolled(_ scroll: FrameScroll) -> CellGrid {
        guard scroll.isUseful else { return self }
        var moved = self
        let top = max(0, scroll.rows.lowerBound), bottom = min(size.rows, scroll.rows.upperBound)
        guard top < bottom else { return self }
        for row in top..<bottom {
            let source = row + scroll.lines
            for column in 0..<size.columns {
                moved.set(column: column, row: row, (top..<bottom).contains(source) ? self[column, source] : .blank)
            }
        }
        return moved
    }
}
