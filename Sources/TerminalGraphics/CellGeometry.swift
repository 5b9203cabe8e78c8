import ImageCodecs

/// A rectangle size in terminal character cells.
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

    /// "C×R cells".
    public var description: String { "\(columns)×\(rows) cells" }
}

/// The pixel size of one character cell.
public struct CellPixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Cell width in pixels.
    public var width: Int
    /// Cell height in pixels.
    public var height: Int

    /// Creates a size; values below 1 count as 1.
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// The size assumed when the terminal does not tell: 8×16.
    public static let fallback = CellPixelSize(width: 8, height: 16)

    /// The pixel size of a rectangle of `cells`, saturating at a sane bound (16384 per side).
    public func pixels(for cells: CellSize) -> PixelSize {
        PixelSize(
            width: min(16384, min(cells.columns, 16384) * min(width, 4096)),
            height: min(16384, min(cells.rows, 16384) * min(height, 4096))
        )
    }

    /// "W×H px".
    public var description: String { "\(width)×\(height) px" }
}
