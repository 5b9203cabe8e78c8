import CNcurses
import ImageCodecs

/// Why the terminal could not be opened.
public struct ScreenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for the user.
    public var message: String
    /// "cannot use the terminal: …".
    public var description: String { "cannot use the terminal: \(message)" }
}

/// The terminal through ncursesw: text cells via curses (diffed, wide characters, extended colour
/// pairs), image placements via the one `FrameWriter` after `doupdate()`. The only curses importer.
/// Used from the UI thread only.
public final class CursesScreen: Screen {
    private var handle: OpaquePointer?
    private var writer: FrameWriter
    private var lastGrid: CellGrid?
    private var pairs: [Int64: Int32] = [:]
    private let colors: Int
    private let mouse: Bool
    /// The current size in cells.
    public private(set) var size: TermSize
    /// Pixel size of one cell, from `TIOCGWINSZ` when sane, else 8×16.
    public private(set) var cellPixels: PixelSize

    /// Opens the terminal on stdin/stdout. `synchronizedOutput` wraps frames in mode 2026; `mouse`
    /// turns on SGR mouse reports. Throws when curses cannot use the terminal (unknown TERM).
    public init(synchronizedOutput: Bool, mouse: Bool = true) throws(ScreenError) {
        guard let screen = sdg_curses_open() else {
            throw ScreenError(message: "unknown or unusable terminal type (TERM)")
        }
        handle = screen
        writer = FrameWriter(synchronizedOutput: synchronizedOutput)
        colors = Int(sdg_curses_start_colors())
        self.mouse = mouse
        size = TermSize(columns: Int(sdg_curses_cols()), rows: Int(sdg_curses_lines()))
        cellPixels = PixelSize(width: 8, height: 16)
        _ = updateSize()
        if mouse { sdg_curses_write("\u{1B}[?1000h\u{1B}[?1006h", 16) }
        sdg_curses_flush()
    }

    deinit { close() }

    /// Installs the SIGWINCH / SIGINT / SIGTERM / SIGHUP handlers; each writes one byte to
    /// `wakeDescriptor` (the UI inbox's wake pipe) so the frame loop wakes up.
    public func installSignalHandlers(wakeDescriptor: Int32) {
        _ = sdg_curses_install_signals(wakeDescriptor)
    }

    /// Resize and quit signals received since the last call.
    public func takeEvents() -> [ScreenEvent] {
        var events: [ScreenEvent] = []
        if sdg_curses_take_resize() != 0 { events.append(.resized) }
        let signal = sdg_curses_quit_signal()
        if signal != 0 { events.append(.quit(signal: signal)) }
        return events
    }

    /// Whether curses started colours.
    public var hasColors: Bool { colors > 0 }

    /// Re-reads the size with `TIOCGWINSZ` and resizes curses; updates the cell pixel size.
    public func updateSize() -> TermSize {
        var rows: Int32 = 0, cols: Int32 = 0, xpixel: Int32 = 0, ypixel: Int32 = 0
        if sdg_curses_winsize(1, &rows, &cols, &xpixel, &ypixel) == 0, rows > 0, cols > 0 {
            if Int(rows) != size.rows || Int(cols) != size.columns { _ = sdg_curses_resize(rows, cols) }
            size = TermSize(columns: Int(cols), rows: Int(rows))
            if xpixel >= 2 * cols, ypixel >= 4 * rows {
                cellPixels = PixelSize(width: Int(xpixel / cols), height: Int(ypixel / rows))
            }
        }
        lastGrid = nil
        writer.reset()
        return size
    }

    /// Draws the text through curses, then the placements through the frame writer.
    public func present(_ frame: Frame, repaintAll: Bool) {
        guard handle != nil else { return }
        let grid = frame.grid
        let previous = (lastGrid?.size == grid.size && !repaintAll) ? lastGrid : nil
        for row in 0..<min(grid.size.rows, size.rows) {
            for column in 0..<min(grid.size.columns, size.columns) {
                let cell = grid[column, row]
                if let previous, previous[column, row] == cell { continue }
                if cell.text.isEmpty { continue }  // right half of a wide character
                put(cell, column: column, row: row)
            }
        }
        let released = writer.release(frame.released)
        let plan = writer.plan(frame.placements, terminal: size, repaintAll: repaintAll || previous == nil,
                               changedRows: FrameWriter.changedRows(from: previous, to: grid))
        lastGrid = grid
        if repaintAll { sdg_curses_force_repaint() }
        for row in plan.staleRows { _ = sdg_curses_redraw_rows(Int32(row), 1) }
        write(writer.frameStart)
        _ = sdg_curses_update()
        write(released + writer.bytes(for: plan))
        write(writer.frameEnd)
        sdg_curses_flush()
    }

    /// Restores the terminal: mouse reports off, `endwin`. Idempotent.
    public func close() {
        guard let screen = handle else { return }
        handle = nil
        write(writer.closingBytes())
        sdg_curses_flush()  // before endwin, which curses writes past stdio's buffer
        if mouse { sdg_curses_write("\u{1B}[?1006l\u{1B}[?1000l", 16) }
        sdg_curses_close(screen)
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sdg_curses_write($0.baseAddress, $0.count) }
    }

    private func put(_ cell: ScreenCell, column: Int, row: Int) {
        var wide: [wchar_t] = cell.text.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) }
        if wide.isEmpty { wide = [wchar_t(32)] }
        wide.append(0)
        var attrs: attr_t = 0
        let style = cell.style
        if style.bold { attrs |= sdg_curses_attr_bold() }
        if style.dim { attrs |= sdg_curses_attr_dim() }
        if style.underline { attrs |= sdg_curses_attr_underline() }
        var reverse = style.reverse
        var pair: Int32 = 0
        if hasColors {
            pair = self.pair(foreground: style.foreground, background: style.background)
        } else if style.background != .terminalDefault {
            reverse.toggle()  // no colours: a coloured background (selection, status bar) shows reversed
        }
        if reverse { attrs |= sdg_curses_attr_reverse() }
        _ = sdg_curses_put(Int32(row), Int32(column), wide, attrs, pair)
    }

    private func pair(foreground: ScreenColor, background: ScreenColor) -> Int32 {
        let fg = PaletteColors.cursesColor(foreground, colors: colors)
        let bg = PaletteColors.cursesColor(background, colors: colors)
        if fg == -1 && bg == -1 { return 0 }
        let key = Int64(fg) << 32 | Int64(UInt32(bitPattern: bg))
        if let known = pairs[key] { return known }
        let allocated = max(0, sdg_curses_pair(fg, bg))
        pairs[key] = allocated
        return allocated
    }
}
