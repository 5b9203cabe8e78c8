import Foundation
import ImageCodecs
import TerminalGraphics
import TerminalModel
@testable import Gallery

/// A `Screen` whose terminal is a `TerminalModel`: it writes what `CursesScreen` writes, through the
/// same `FramePresenter` — its bytes before the text, the text curses would send for the frame, its
/// bytes after — so the model shows what a real terminal of its kind would.
///
/// The text is what ncurses sends for the cells that differ from what the terminal shows (after a
/// scroll: the scrolled grid): on the private terminfo entry (`NoScrollTerminfo`: no `EL`, `ED`,
/// insert or delete) it writes the changed cells of a row and rewrites the unchanged runs between
/// them that are shorter than a cursor move. A full
/// repaint clears the screen (`CSI 2 J`) and writes every cell.
final class ModelScreen: Screen {
    let terminal: TerminalModel
    private(set) var size: CellSize
    let cellPixels: PixelSize
    /// The production screen's rules (`CursesScreen` presents through the same type), with the
    /// profile's strategy as the runner gives it.
    private var presenter: FramePresenter
    /// The last frame presented.
    private(set) var lastFrame: Frame?
    /// Bytes written to the terminal.
    private(set) var bytesWritten = 0
    /// Size the next `updateSize()` reports (a resize: queue `.resized` too).
    var nextSize: CellSize?
    var queuedEvents: [ScreenEvent] = []

    init(kind: TerminalKind, size: CellSize, cellPixels: PixelSize, strategy: TerminalStrategy) {
        terminal = TerminalModel(kind: kind, columns: size.columns, rows: size.rows,
                                 cellWidth: cellPixels.width, cellHeight: cellPixels.height)
        self.size = size
        self.cellPixels = cellPixels
        var strategy = strategy
        strategy.synchronizedOutput = true
        presenter = FramePresenter(strategy: strategy)
    }

    func present(_ frame: Frame, repaintAll: Bool) {
        let shown = presenter.present(frame, repaintAll: repaintAll, terminal: size)
        lastFrame = frame
        write(shown.uploads)
        write(shown.beforeText)
        write(Self.text(of: frame.grid, over: shown.previous, size: size))
        write(shown.afterText)
        terminal.idle()  // tmux redraws the pane once it has read the frame
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytesWritten += bytes.count
        terminal.write(bytes)
    }

    /// What curses sends to turn `previous` (nil: unknown, the screen is cleared) into `grid`.
    static func text(of grid: CellGrid, over previous: CellGrid?, size: CellSize) -> [UInt8] {
        var out: [UInt8] = previous == nil ? Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8) : []
        let columns = min(grid.size.columns, size.columns)
        for row in 0..<min(grid.size.rows, size.rows) {
            let changed = changedColumns(row, columns, grid, over: previous)
            // ncurses (PutRange) rewrites a run of unchanged cells between changes only when that is
            // cheaper than moving the cursor over it (a CUP is about 8 bytes); longer runs are skipped.
            var runs: [(Int, Int)] = []
            for column in changed {
                if let last = runs.last, column - last.1 - 1 <= 8 { runs[runs.count - 1].1 = column } else { runs.append((column, column)) }
            }
            for (start, end) in runs {
                var first = start
                if grid[first, row].text.isEmpty, first > 0 { first -= 1 }  // right half of a wide character
                out += FrameWriter.cursorPosition(row: row, column: first)
                var style: TextStyle?
                for column in first...end where !grid[column, row].text.isEmpty {
                    let cell = grid[column, row]
                    if cell.style != style {
                        out += sgr(cell.style)
                        style = cell.style
                    }
                    out += Array(cell.text.utf8)
                }
            }
            out += Array("\u{1B}[0m".utf8)
        }
        return out
    }

    /// The columns of `row` (up to `columns`) whose cell differs from `previous`'s (nil: from a
    /// blank cell). Cells are compared bit for bit first (each cell's bytes without the padding
    /// after it: equal bits are equal cells) and with `==` only when their bits differ (a string
    /// stored apart): the same columns as `==` alone, which (with the grids' bounds-checked
    /// subscript) took a large part of the exploration's time in a debug build.
    private static func changedColumns(_ row: Int, _ columns: Int, _ grid: CellGrid, over previous: CellGrid?) -> [Int] {
        if let previous, previous.size != grid.size {
            return (0..<columns).filter { previous[$0, row] != grid[$0, row] }
        }
        let start = row * grid.size.columns, size = MemoryLayout<ScreenCell>.size
        var blank = ScreenCell.blank
        return withUnsafeBytes(of: &blank) { blankBytes in
            grid.cells.withUnsafeBufferPointer { cells in
                (previous?.cells ?? []).withUnsafeBufferPointer { old in
                    var changed: [Int] = []
                    for column in 0..<columns {
                        let cell = cells.baseAddress! + start + column
                        if previous != nil {
                            let was = old.baseAddress! + start + column
                            if memcmp(cell, was, size) != 0, cell.pointee != was.pointee { changed.append(column) }
                        } else if memcmp(cell, blankBytes.baseAddress!, size) != 0, cell.pointee != .blank {
                            changed.append(column)
                        }
                    }
                    return changed
                }
            }
        }
    }

    static func sgr(_ style: TextStyle) -> [UInt8] {
        var parts = ["0"]
        if style.bold { parts.append("1") }
        if style.dim { parts.append("2") }
        if style.underline { parts.append("4") }
        if style.reverse { parts.append("7") }
        func colour(_ color: ScreenColor, base: Int) -> String? {
            switch color {
            case .terminalDefault: return nil
            case .palette(let index): return "\(base);5;\(index)"
            case .rgb(let r, let g, let b): return "\(base);5;\(ScreenColor.nearestPaletteIndex(r: r, g: g, b: b))"
            }
        }
        if let fg = colour(style.foreground, base: 38) { parts.append(fg) }
        if let bg = colour(style.background, base: 48) { parts.append(bg) }
        return Array("\u{1B}[\(parts.joined(separator: ";"))m".utf8)
    }

    func updateSize() -> CellSize {
        if let next = nextSize {
            size = next
            nextSize = nil
            terminal.resize(columns: next.columns, rows: next.rows)
        }
        presenter.reset()
        return size
    }

    func close() { write(presenter.closingBytes()) }
    func suspend() { _ = presenter.closingBytes() }
    func copyToClipboard(_ text: String) {}
    func takeEvents() -> [ScreenEvent] {
        defer { queuedEvents.removeAll() }
        return queuedEvents
    }
    var outputBacklog: Int { 0 }
    var outputDescriptor: Int32? { nil }
    func flushOutput() {}
}
