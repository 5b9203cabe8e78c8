/// One text cell as the terminal holds it: characters, colours (packed: `0x2000000` default,
/// `0x1000000 | n` palette index n, else `0xRRGGBB`) and attribute bits (1 bold, 2 underline,
/// 4 italic, 8 blink, 16 reverse, 32 strike).
public struct TextCell: Sendable, Hashable, CustomStringConvertible {
    /// The characters ("" for the right half of a wide character, " " for a blank).
    public var text: String
    /// Foreground colour, packed.
    public var foreground: UInt32
    /// Background colour, packed.
    public var background: UInt32
    /// Attribute bits.
    public var attributes: UInt8

    /// The default colour (packed).
    public static let defaultColor: UInt32 = 0x200_0000

    /// Creates a cell.
    public init(text: String, foreground: UInt32 = TextCell.defaultColor, background: UInt32 = TextCell.defaultColor, attributes: UInt8 = 0) {
        self.text = text
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public var description: String {
        "\"\(text)\" fg \(String(foreground, radix: 16)) bg \(String(background, radix: 16)) a\(attributes)"
    }
}

/// What one cell shows a person: an image fragment drawn over it, or its text.
public enum VisibleCell: Sendable, Hashable, CustomStringConvertible {
    /// Text (or a blank).
    case text(TextCell)
    /// A part of an image.
    case image(ImageFragment)

    public var description: String {
        switch self {
        case .text(let cell): return cell.description
        case .image(let fragment): return fragment.description
        }
    }

    /// Equal as a person sees it: kitty placement ids do not show.
    func looksLike(_ other: VisibleCell) -> Bool {
        switch (self, other) {
        case (.image(let a), .image(let b)): return a.image == b.image && a.dx == b.dx && a.dy == b.dy
        default: return self == other
        }
    }
}

/// Everything the terminal shows, cell by cell (what a screenshot would show, at cell resolution).
public struct TerminalSnapshot: Sendable, Hashable {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int
    /// Cells, row by row.
    public var cells: [VisibleCell]

    /// The cell at (column, row).
    public subscript(column: Int, row: Int) -> VisibleCell { cells[row * columns + column] }

    /// The text of row `row` (image cells shown as `▒`).
    public func line(_ row: Int) -> String {
        (0..<columns).map { column -> String in
            if case .text(let cell) = self[column, row] { return cell.text }
            return "▒"
        }.joined()
    }

    /// The cells that look different from `other` (as a person sees them), in rows `rows`
    /// (all rows when nil); empty when the sizes differ… then every cell is reported.
    public func differences(from other: TerminalSnapshot, rows: Range<Int>? = nil) -> [(column: Int, row: Int, mine: VisibleCell, theirs: VisibleCell)] {
        guard other.columns == columns, other.rows == rows_ else {
            return [(0, 0, .text(TextCell(text: "size \(columns)x\(rows_)")), .text(TextCell(text: "size \(other.columns)x\(other.rows)")))]
        }
        var result: [(column: Int, row: Int, mine: VisibleCell, theirs: VisibleCell)] = []
        for row in (rows ?? 0..<rows_) where row >= 0 && row < rows_ {
            for column in 0..<columns where !self[column, row].looksLike(other[column, row]) {
                result.append((column, row, self[column, row], other[column, row]))
            }
        }
        return result
    }

    /// A short account of `differences(from:rows:)`: the count, then the first few cells.
    public func describeDifferences(from other: TerminalSnapshot, rows: Range<Int>? = nil, limit: Int = 8) -> String {
        let found = differences(from: other, rows: rows)
        guard !found.isEmpty else { return "no differences" }
        let shown = found.prefix(limit).map { "(\($0.column),\($0.row)): \($0.mine) vs \($0.theirs)" }
        return "\(found.count) cells differ: " + shown.joined(separator: "; ")
    }

    private var rows_: Int { rows }
}
