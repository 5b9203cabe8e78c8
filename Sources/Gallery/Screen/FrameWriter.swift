import TerminalGraphics

/// The one writer of image bytes to the terminal. Curses draws the text of a frame; then this writer
/// emits the image placements that are new, changed, or were overwritten by text: save cursor, move,
/// write, restore, all inside synchronized output (`CSI ?2026h … CSI ?2026l`) when the terminal
/// supports it. Never on the last row (a sixel there would scroll the screen). Pure: it returns bytes
/// and a plan; the screen does the I/O.
public struct FrameWriter: Sendable {
    /// What to do for one frame.
    public struct Plan: Sendable, Hashable {
        /// Rectangles whose old pixels must go before the text is drawn: every placement that left or
        /// changed (other image, other size, text now). Erased explicitly (`ECH` per row), whatever the
        /// text layer believes is there: curses thinks those cells are blank, and text erases sixel
        /// pixels and half-block text alike.
        public var cleared: [CellRect] = []
        /// Placements to write after the text, in order.
        public var emit: [BitmapPlacement] = []
        /// Placements that went away and carry `erase` bytes (kitty): their erase bytes are written
        /// with the cleared rectangles.
        public var erased: [BitmapPlacement] = []
    }

    /// The placements currently on the terminal.
    public internal(set) var shown: [BitmapPlacement] = []
    /// Image data the terminal holds (kitty uploads): see `FrameWriter+Uploads.swift`.
    var uploads = KittySession()
    /// Cells of placeholder pictures whose image `release` freed: cleared by the next plan.
    var releasedText: [CellRect] = []

    /// Creates a writer (nothing on the terminal).
    public init() {}

    /// Plans the next frame. `changedRows` are the rows whose text changed since the previous frame:
    /// curses may rewrite or clear any part of such a row (ncurses clears to the start or end of a line
    /// when that is cheaper), so every image on them is written again. With `changedSpans` (curses
    /// without clearing capabilities: `changedSpans(from:to:)`) only the images under those cells are.
    /// With `coverFirst` (tmux draws the images: `TmuxImages`) every placement written is cleared
    /// first, so that the image tmux keeps under it is freed and tmux never holds more images than
    /// are on screen.
    public mutating func plan(_ next: [BitmapPlacement], terminal: CellSize, repaintAll: Bool,
                              changedRows: Set<Int>, changedSpans: [CellRect]? = nil, coverFirst: Bool = false) -> Plan {
        let usable = next.filter { p in
            !p.rect.isEmpty && p.rect.column >= 0 && p.rect.row >= 0
                && p.rect.maxRow <= terminal.rows - 1 && p.rect.maxColumn <= terminal.columns
        }
        var plan = Plan()
        plan.cleared = releasedText
        releasedText = []
        for old in shown where !usable.contains(old) {
            if !old.image.erase.isEmpty { plan.erased.append(old) }
            plan.cleared.append(old.rect)
        }
        for placement in usable {
            let rows = placement.rect.row..<placement.rect.maxRow
            let overwritten = changedSpans.map { spans in spans.contains { $0.intersects(placement.rect) } }
                ?? rows.contains(where: { changedRows.contains($0) })
            if repaintAll || !shown.contains(placement) || overwritten
                || plan.cleared.contains(where: { $0.intersects(placement.rect) }) {
                plan.emit.append(placement)
            }
        }
        if coverFirst {
            plan.cleared += plan.emit.map(\.rect).filter { rect in !plan.cleared.contains(rect) }
        }
        shown = usable
        return plan
    }

    /// Forgets what is on the terminal (after a clear).
    public mutating func reset() {
        shown = []
        releasedText = []
        uploads.reset()
    }

    /// The rows that differ between two grids (all rows when the sizes differ).
    public static func changedRows(from old: CellGrid?, to new: CellGrid) -> Set<Int> {
        guard let old, old.size == new.size else { return Set(0..<new.size.rows) }
        var rows = Set<Int>()
        let width = new.size.columns
        for row in 0..<new.size.rows where old.cells[(row * width)..<((row + 1) * width)] != new.cells[(row * width)..<((row + 1) * width)] {
            rows.insert(row)
        }
        return rows
    }

    /// Whether a changed, non-blank row of `new` equals another row of `old`: text moved vertically,
    /// so curses may scroll lines (moving the images the terminal shows on them).
    public static func rowsMoved(from old: CellGrid, to new: CellGrid) -> Bool {
        guard old.size == new.size else { return false }
        let width = new.size.columns
        let oldRows = (0..<old.size.rows).map { old.cells[($0 * width)..<(($0 + 1) * width)] }
        var seen: [ArraySlice<ScreenCell>: [Int]] = [:]
        for (index, row) in oldRows.enumerated() { seen[row, default: []].append(index) }
        for row in 0..<new.size.rows {
            let line = new.cells[(row * width)..<((row + 1) * width)]
            guard line != oldRows[row], line.contains(where: { $0 != .blank }) else { continue }
            if seen[line]?.contains(where: { $0 != row }) == true { return true }
        }
        return false
    }

    /// The runs of blank cells (`ScreenCell.blank`) of `grid` outside every placement in `placements`,
    /// one single-row rectangle each, above the last row. Erasing them after the text is drawn removes
    /// whatever the terminal still shows there that the text layer does not know about: images the
    /// terminal moved when curses scrolled lines (tmux half-blocks moved by a scroll region).
    public static func blankRuns(of grid: CellGrid, outside placements: [BitmapPlacement]) -> [CellRect] {
        var runs: [CellRect] = []
        let rows = max(0, grid.size.rows - 1)
        for row in 0..<rows {
            var start: Int? = nil
            for column in 0...grid.size.columns {
                let free = column < grid.size.columns && grid[column, row] == .blank
                    && !placements.contains(where: { $0.rect.contains(column: column, row: row) })
                if free, start == nil { start = column }
                if !free, let first = start {
                    runs.append(CellRect(column: first, row: row, columns: column - first, rows: 1))
                    start = nil
                }
            }
        }
        return runs
    }

    /// The bytes that remove what `erased` and `cleared` show: save cursor, the erase bytes of
    /// `erased` (kitty deletes), then attributes off and the terminal's erase of each rectangle
    /// (`TerminalStrategy.erase`: `ECH` per row, spaces where tmux draws the images, kitty's delete
    /// by cell first where text does not erase bitmaps); restore cursor. Written before the text of
    /// the frame. Empty when there is nothing to remove.
    public static func clearing(_ cleared: [CellRect], erasing erased: [BitmapPlacement] = [],
                                strategy: TerminalStrategy = TerminalStrategy()) -> [UInt8] {
        guard !cleared.isEmpty || !erased.isEmpty else { return [] }
        var out: [UInt8] = EscapeSequence.saveCursor
        for gone in erased { out += gone.image.erase }
        if !cleared.isEmpty { out += EscapeSequence.reset }
        for rect in cleared { out += strategy.erase(rect) }
        out += EscapeSequence.restoreCursor
        return out
    }

    /// The bytes that write `placements`: save cursor, the erase bytes of `erased`, then for each
    /// placement: move and write (text kinds row by row), reset attributes; restore cursor. Empty when
    /// there is nothing to write.
    public static func bytes(for placements: [BitmapPlacement], erasing erased: [BitmapPlacement] = []) -> [UInt8] {
        guard !placements.isEmpty || !erased.isEmpty else { return [] }
        var out: [UInt8] = EscapeSequence.saveCursor
        for gone in erased { out += gone.image.erase }
        for placement in placements {
            if placement.image.rows.isEmpty {
                out += cursorPosition(row: placement.rect.row, column: placement.rect.column)
                out += placement.image.bytes
            } else {
                for (offset, line) in placement.image.rows.enumerated() where offset < placement.rect.rows {
                    out += cursorPosition(row: placement.rect.row + offset, column: placement.rect.column)
                    out += line
                }
            }
            out += EscapeSequence.reset
        }
        out += EscapeSequence.restoreCursor
        return out
    }

    /// `CSI row;col H` for a 0-based position.
    public static func cursorPosition(row: Int, column: Int) -> [UInt8] {
        EscapeSequence.cursorPosition(row: row + 1, column: column + 1)
    }
}
