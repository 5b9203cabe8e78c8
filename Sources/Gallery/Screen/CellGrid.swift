import TerminalGraphics
/// One character cell: a grapheme (sanitized, 1 or 2 columns wide) and its style. The cell to the
/// right of a wide character holds the empty string.
public struct ScreenCell: Sendable, Hashable {
    /// The character shown ("" for the second half of a wide character).
    public var text: String
    /// Its style.
    public var style: TextStyle

    /// Creates a cell.
    public init(_ text: String = " ", style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// A blank cell.
    public static let blank = ScreenCell()
}

/// A screenful of text cells, built by the composer and shown by a `Screen`. Writing is clipped to
/// the grid; text is sanitized on the way in.
public struct CellGrid: Sendable, Hashable {
    /// Size in cells.
    public let size: CellSize
    /// Cells, row after row.
    public private(set) var cells: [ScreenCell]

    /// A blank grid.
    public init(size: CellSize) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.columns * size.rows)
    }

    /// The cell at (column, row); a blank cell outside the grid.
    public subscript(column: Int, row: Int) -> ScreenCell {
        guard column >= 0, row >= 0, column < size.columns, row < size.rows else { return .blank }
        return cells[row * size.columns + column]
    }

    /// Writes `text` from (column, row), at most `limit` columns (default: to the right edge), cutting
    /// with "…". Returns the number of columns written.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, style: TextStyle = .plain, limit: Int? = nil) -> Int {
        guard row >= 0, row < size.rows, column < size.columns else { return 0 }
        let room = min(limit ?? Int.max, size.columns - max(0, column))
        guard room > 0 else { return 0 }
        let fitted = TerminalText.fit(TerminalText.sanitize(text), width: room)
        var x = column
        for character in fitted {
            let width = TerminalText.width(of: String(character))
            if width == 0 { continue }
            guard x + width <= column + room else { break }
            if x >= 0 {
                cells[row * size.columns + x] = ScreenCell(String(character), style: style)
                if width == 2, x + 1 < size.columns { cells[row * size.columns + x + 1] = ScreenCell("", style: style) }
            }
            x += width
        }
        return x - column
    }

    /// Fills `rect` (clipped) with `character` in `style`.
    public mutating func fill(_ rect: CellRect, with character: String = " ", style: TextStyle = .plain) {
        let top = max(0, rect.row), bottom = min(size.rows, rect.maxRow)
        let left = max(0, rect.column), right = min(size.columns, rect.maxColumn)
        guard top < bottom, left < right else { return }
        for row in top..<bottom {
            for column in left..<right { cells[row * size.columns + column] = ScreenCell(character, style: style) }
        }
    }

    /// Sets one cell (clipped); `text` must be one narrow, sanitized character.
    public mutating func set(column: Int, row: Int, _ cell: ScreenCell) {
        guard column >= 0, row >= 0, column < size.columns, row < size.rows else { return }
        cells[row * size.columns + column] = cell
    }

    /// The text of one row (for tests and non-tty output), wide characters once.
    public func line(_ row: Int) -> String {
        guard row >= 0, row < size.rows else { return "" }
        return (0..<size.columns).map { self[$0, row].text }.joined()
    }
}
