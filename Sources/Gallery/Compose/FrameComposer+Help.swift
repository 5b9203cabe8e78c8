import ImageCodecs
import TerminalGraphics

/// The key help box over the images. The writer draws images after the text, so nothing may be
/// placed over the box: text images (half-blocks, quadrants, sextants, ascii: one entry of
/// `RenderedImage.rows` per cell row) keep their whole rows above and below it; a bitmap (sixel,
/// kitty, iTerm2) cannot be cut by cells, so it is kept only when it lies entirely outside the box.
/// The box moves up or down to cut through as few image rectangles of the layout as it can (the
/// layout's, not the painted ones: the box stays put while images arrive).
extension FrameComposer {
    /// Draws the help, placed to cut the fewest of `images` (the layout's image rectangles), over
    /// `placements` and returns what of them stays on screen.
    func overlayHelp(on placements: [BitmapPlacement], avoiding images: [CellRect], grid: inout CellGrid) -> [BitmapPlacement] {
        let box = drawHelp(grid: &grid, avoiding: images)
        return placements.flatMap { Self.parts(of: $0, outside: box) }
    }

    /// The parts of `placement` that do not touch `box`: the whole placement when it is clear of it;
    /// for a text image with one row per cell row, its rows above and below the box; else nothing.
    static func parts(of placement: BitmapPlacement, outside box: CellRect) -> [BitmapPlacement] {
        let rect = placement.rect
        guard rect.intersects(box) else { return [placement] }
        guard !placement.image.rows.isEmpty, placement.image.rows.count == rect.rows else { return [] }
        var parts: [BitmapPlacement] = []
        let above = box.row - rect.row
        if above > 0 { parts.append(slice(placement, rows: 0..<above)) }
        let below = rect.maxRow - box.maxRow
        if below > 0 { parts.append(slice(placement, rows: (rect.rows - below)..<rect.rows)) }
        return parts
    }

    /// The cell rows `range` of a text placement, placed where they were.
    static func slice(_ placement: BitmapPlacement, rows range: Range<Int>) -> BitmapPlacement {
        var image = placement.image
        let total = max(1, image.rows.count)
        image.rows = Array(image.rows[range])
        image.bytes = []  // the writer writes text kinds row by row
        image.cells = CellSize(columns: image.cells.columns, rows: range.count)
        image.pixelSize = PixelSize(width: image.pixelSize.width, height: image.pixelSize.height * range.count / total)
        var hasher = Hasher()
        hasher.combine(image.identity)
        hasher.combine(range.lowerBound)
        hasher.combine(range.count)
        image.identity = UInt64(bitPattern: Int64(hasher.finalize()))
        return BitmapPlacement(column: placement.rect.column, row: placement.rect.row + range.lowerBound, image: image)
    }

    /// The top row for a help box of `height` rows on a screen of `rows` rows (the last is the
    /// status bar): the one cutting through the fewest of `images` among those whose columns
    /// `columns` cross, nearest the centre on a tie.
    static func helpTop(height: Int, rows: Int, columns: Range<Int>, avoiding images: [CellRect]) -> Int {
        let centre = max(0, (rows - 1 - height) / 2)
        let crossing = images.filter { $0.column < columns.upperBound && columns.lowerBound < $0.maxColumn }
        guard !crossing.isEmpty, rows - 1 - height > 0 else { return centre }
        func cut(_ top: Int) -> Int { crossing.count(where: { $0.row < top + height && top < $0.maxRow }) }
        return (0...(rows - 1 - height)).min { a, b in
            (cut(a), abs(a - centre)) < (cut(b), abs(b - centre))
        } ?? centre
    }

    /// The key help, centred across; placed down the screen to cut through as few of `images` as
    /// it can (`helpTop`). Returns the box drawn.
    func drawHelp(grid: inout CellGrid, avoiding images: [CellRect] = []) -> CellRect {
        let entries: [(String, String)] = [
            ("←↓↑→ hjkl", "move the selection"),
            ("PgUp PgDn b Space", "previous / next screen"),
            ("g G Home End", "first / last image"),
            ("Enter", "full view"),
            ("n p", "next / previous image"),
            ("q Esc", "back; quit from the grid"),
            ("v", "grid / list view"),
            ("r R", "refresh selected / visible"),
            ("s y", "save the original; copy the URL"),
            ("a", "pause / play animations"),
            ("/", "filter by URL or title (Esc clears)"),
            ("Ctrl-L Ctrl-Z", "repaint; suspend (fg resumes)"),
            ("?", "this help (any key closes)"),
            ("wheel, click", "scroll, select; double-click opens"),
        ]
        let keyWidth = entries.map { TerminalText.width(of: $0.0) }.max() ?? 0
        let textWidth = entries.map { TerminalText.width(of: $0.1) }.max() ?? 0
        let width = min(grid.size.columns, keyWidth + textWidth + 6)
        let height = min(max(0, grid.size.rows - 1), entries.count + 4)
        let left = max(0, (grid.size.columns - width) / 2)
        let top = Self.helpTop(height: height, rows: grid.size.rows, columns: left..<(left + width), avoiding: images)
        let box = CellRect(column: left, row: top, columns: width, rows: height)
        guard !box.isEmpty else { return box }
        grid.fill(box, style: theme.help)
        grid.put(TerminalText.center("sdgallery — keys", width: box.columns), column: box.column, row: box.row + 1, style: theme.helpKey, limit: box.columns)
        for (offset, entry) in entries.enumerated() where offset + 3 < box.rows {
            let row = box.row + 3 + offset
            let used = grid.put(entry.0, column: box.column + 2, row: row, style: theme.helpKey, limit: max(0, box.columns - 2))
            _ = used
            grid.put(entry.1, column: box.column + 4 + keyWidth, row: row, style: theme.help, limit: max(0, box.columns - keyWidth - 5))
        }
        return box
    }
}
