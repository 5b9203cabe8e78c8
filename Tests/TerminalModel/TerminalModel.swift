import CVTerm

/// A model of a terminal as a test oracle: it interprets exactly the bytes a program writes and
/// says what a person would see, cell by cell.
///
/// The text layer is libvterm's VT parser and state machine (cursor, margins, wrap, SGR, erase,
/// scroll regions) over a cell grid (`CVTerm`). The image layer is kept here: sixel (`ESC P … q …
/// ESC \`) and kitty graphics (`ESC _ G … ESC \`) placed at the cursor with their size in cells,
/// moved by scrolling and erased by text as the `TerminalKind` does.
///
/// ```swift
/// let terminal = TerminalModel(kind: .xterm, columns: 80, rows: 24)
/// terminal.write(Array("\u{1B}[3;5Hhello".utf8))
/// terminal.snapshot.line(2)         // "    hello…"
/// terminal.images(in: rect)         // which image fragments are shown
/// ```
/// Not thread-safe: one owner at a time.
public final class TerminalModel {
    /// The terminal imitated.
    public let kind: TerminalKind
    /// Pixel size of one cell (sizes sixel and kitty images without `c`/`r`).
    public let cellWidth: Int, cellHeight: Int
    /// Things a real terminal would complain about or do that a program should never cause, in
    /// order: kitty ENOENT replies, sixels reaching the last row (they scroll the screen), …
    public internal(set) var diagnostics: [String] = []
    /// kitty: image ids the terminal holds data for.
    public internal(set) var kittyImages: [UInt32: (width: Int, height: Int)] = [:]
    /// kitty: a chunked transmission in progress (its first chunk's keys).
    var kittyPending: [String: String]?
    /// kitty: the virtual placements (`U=1`) per image id, in cells.
    public internal(set) var kittyVirtual: [UInt32: (columns: Int, rows: Int)] = [:]

    let terminal: OpaquePointer
    /// The image layer: per cell, the fragment shown over the text, if any.
    var layer: [ImageFragment?]
    var splitter = ControlStringSplitter()
    /// Swaps kitty's placeholder marks libvterm does not know (kinds that show placeholders).
    var marks = PlaceholderMarks()
    /// xterm after a reverse scroll: the band it exposed and what its (unmoved) record of sixels
    /// has there, drawn again when text is next written below the band.
    var staleBand: (rows: Range<Int>, fragments: [Int: ImageFragment])?
    /// tmux 3.5a: the images it keeps, oldest first, and whether it owes the pane a redraw.
    var tmuxImages: [TmuxImage] = []
    var tmuxRedrawOwed = false

    /// A terminal of `columns` × `rows` cells of `cellWidth` × `cellHeight` pixels.
    public init(kind: TerminalKind, columns: Int, rows: Int, cellWidth: Int = 8, cellHeight: Int = 16) {
        self.kind = kind
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
        guard let made = cvt_new(Int32(max(1, rows)), Int32(max(1, columns))) else {
            // Out of memory for a few KB: nothing sensible to test with.
            fatalError("libvterm could not allocate a terminal")
        }
        terminal = made
        layer = Array(repeating: nil, count: max(1, rows) * max(1, columns))
    }

    deinit { cvt_free(terminal) }

    /// Columns and rows.
    public var size: (columns: Int, rows: Int) {
        var rows: Int32 = 0, columns: Int32 = 0
        cvt_size(terminal, &rows, &columns)
        return (Int(columns), Int(rows))
    }

    /// The cursor (0-based).
    public var cursor: (column: Int, row: Int) {
        var row: Int32 = 0, column: Int32 = 0
        cvt_cursor(terminal, &row, &column)
        return (Int(column), Int(row))
    }

    /// Interprets `bytes` (they may split escape sequences anywhere).
    public func write(_ bytes: [UInt8]) {
        for piece in splitter.feed(bytes) {
            switch piece {
            case .text(let raw):
                let text = kind.showsPlaceholders ? marks.swap(raw) : raw
                text.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { cvt_write(terminal, $0.baseAddress, $0.count) }
                }
                applyTextEvents()
            case .dcs(let body): deviceControl(body)
            case .apc(let body): applicationCommand(body)
            }
        }
    }

    /// Interprets `text`'s UTF-8.
    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Resizes (as a window resize does): text kept top-left; images kept where they still fit.
    public func resize(columns: Int, rows: Int) {
        let old = size
        cvt_resize(terminal, Int32(max(1, rows)), Int32(max(1, columns)))
        _ = cvt_take_events(terminal, nil, 0)
        var resized = [ImageFragment?](repeating: nil, count: max(1, rows) * max(1, columns))
        for row in 0..<min(old.rows, rows) {
            for column in 0..<min(old.columns, columns) { resized[row * columns + column] = layer[row * old.columns + column] }
        }
        layer = resized
    }

    /// The text cell at (column, row), whatever image is over it.
    public func textCell(column: Int, row: Int) -> TextCell {
        let cell = cvt_cell_at(terminal, Int32(row), Int32(column))
        let chars = [cell.chars.0, cell.chars.1, cell.chars.2, cell.chars.3].prefix { $0 != 0 }
        var text = String(String.UnicodeScalarView(chars.compactMap(Unicode.Scalar.init)))
        if text.isEmpty && cell.width != 0 { text = " " }
        return TextCell(text: text, foreground: cell.foreground, background: cell.background, attributes: cell.attributes)
    }

    /// The image fragment shown at (column, row), if any.
    public func image(column: Int, row: Int) -> ImageFragment? {
        let (columns, rows) = size
        guard column >= 0, column < columns, row >= 0, row < rows else { return nil }
        return layer[row * columns + column] ?? placeholderFragment(column: column, row: row)
    }

    /// What every cell shows.
    public var snapshot: TerminalSnapshot {
        let (columns, rows) = size
        var cells: [VisibleCell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                if let fragment = layer[row * columns + column] ?? placeholderFragment(column: column, row: row) { cells.append(.image(fragment)) } else {
                    cells.append(.text(textCell(column: column, row: row)))
                }
            }
        }
        return TerminalSnapshot(columns: columns, rows: rows, cells: cells)
    }

    /// The images shown anywhere, with how many cells each covers.
    public var shownImages: [ImageKey: Int] {
        var counts: [ImageKey: Int] = [:]
        for case let fragment? in layer { counts[fragment.image, default: 0] += 1 }
        let (columns, rows) = size
        if kind.showsPlaceholders {
            for row in 0..<rows { for column in 0..<columns { if let f = placeholderFragment(column: column, row: row) { counts[f.image, default: 0] += 1 } } }
        }
        return counts
    }
}
