import ImageCodecs

/// A size in terminal character cells (the screen, a cell rectangle, what an image covers).
public struct CellSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in columns.
    public var columns: Int
    /// Height in rows.
    public var rows: Int

    /// Creates a size; negative values count as 0.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { columns == 0 || rows == 0 }

    /// "80×24".
    public var description: String { "\(columns)×\(rows)" }
}

/// A rectangle of character cells, 0-based from the top-left of the screen.
public struct CellRect: Sendable, Hashable, CustomStringConvertible {
    /// Leftmost column.
    public var column: Int
    /// Top row.
    public var row: Int
    /// Width in columns.
    public var columns: Int
    /// Height in rows.
    public var rows: Int

    /// Creates a rectangle; negative sizes count as 0.
    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.column = column
        self.row = row
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    /// The empty rectangle at the origin.
    public static let zero = CellRect(column: 0, row: 0, columns: 0, rows: 0)

    /// Whether the rectangle covers no cell.
    public var isEmpty: Bool { columns == 0 || rows == 0 }

    /// One past the last row.
    public var maxRow: Int { row + rows }

    /// One past the last column.
    public var maxColumn: Int { column + columns }

    /// Whether (column, row) lies inside.
    public func contains(column c: Int, row r: Int) -> Bool {
        c >= column && c < maxColumn && r >= row && r < maxRow
    }

    /// Whether the two rectangles share a cell.
    public func intersects(_ other: CellRect) -> Bool {
        !isEmpty && !other.isEmpty && column < other.maxColumn && other.column < maxColumn
            && row < other.maxRow && other.row < maxRow
    }

    /// A rectangle of `size` (clipped to this one) centred in it, rounding towards the top-left.
    public func centring(_ size: CellSize) -> CellRect {
        let columns = min(size.columns, self.columns), rows = min(size.rows, self.rows)
        return CellRect(column: column + (self.columns - columns) / 2, row: row + (self.rows - rows) / 2, columns: columns, rows: rows)
    }

    /// Whether `other` lies entirely inside this rectangle.
    public func covers(_ other: CellRect) -> Bool {
        other.column >= column && other.row >= row && other.maxColumn <= maxColumn && other.maxRow <= maxRow
    }

    /// The pixel size of this rectangle for a cell of `cellPixels`.
    public func pixelSize(cellPixels: PixelSize) -> PixelSize {
        PixelSize(width: min(16_384, columns * cellPixels.width), height: min(16_384, rows * cellPixels.height))
    }

    /// "C×R at (col,row)".
    public var description: String { "\(columns)×\(rows) at (\(column),\(row))" }
}

extension PixelSize {
    /// A character cell's pixel size as a terminal reports it; values below 1 count as 1.
    public static func cell(width: Int, height: Int) -> PixelSize {
        PixelSize(width: max(1, width), height: max(1, height))
    }

    /// Whether this is a cell size a terminal can have: 2…512 pixels wide, 4…1024 high. A reply or a
    /// window size giving another (a 1×1 cell) is not taken: every picture would be a few pixels.
    public var isPlausibleCell: Bool { (2...512).contains(width) && (4...1024).contains(height) }

    /// The cell size assumed when the terminal does not tell: 8×16.
    public static let fallbackCell = PixelSize(width: 8, height: 16)

    /// For a cell of this size: the pixel size of a rectangle of `cells`, saturating at a sane
    /// bound (16384 per side).
    public func pixels(for cells: CellSize) -> PixelSize {
        PixelSize(
            width: min(16384, min(cells.columns, 16384) * min(max(1, width), 4096)),
            height: min(16384, min(cells.rows, 16384) * min(max(1, height), 4096))
        )
    }
}
