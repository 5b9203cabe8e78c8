import Foundation
import CNcurses
import ImageCodecs
import TerminalGraphics

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
    /// Whether curses is open (between init and close).
    var isOpen: Bool { handle != nil }
    /// The rules of a frame's bytes around curses' text (shared with the tests' model screen).
    private var presenter: FramePresenter
    private var pairs: [Int64: Int32] = [:]
    private let colors: Int
    private let mouse: Bool
    /// Whether focus reports (`CSI ?1004h`: `CSI I` / `CSI O` as input) are on.
    private var focusReports = false
    /// The current size in cells.
    public private(set) var size: CellSize
    /// What was decided about the terminal; its cell size is kept current here (`updateSize`, `learnCellSize`).
    public private(set) var profile: TerminalProfile
    /// Pixel size of one cell: the profile's (`TIOCGWINSZ` when sane, else what the terminal answered,
    /// re-asked after every resize, else 8×16).
    public var cellPixels: PixelSize { profile.cellPixelSize }
    /// Where standard output goes while the screen is open (`queueOutput`); nil: straight to the terminal.
    var output: TerminalOutput?
    /// The UI inbox's wake descriptor, for the output's drain thread (kept to queue again after Ctrl-Z).
    var wakeDescriptor: Int32 = -1

    /// Opens the terminal on stdin/stdout for `profile` (its `TerminalStrategy`, cell size); `mouse` turns on SGR mouse reports. Throws when curses cannot use the terminal (unknown TERM).
    public init(profile: TerminalProfile, mouse: Bool = true) throws(ScreenError) {
        // Curses without the terminal's scroll capabilities when that can be arranged: then only this
        // program scrolls the terminal (and knows where the images went).
        let noScroll = NoScrollTerminfo.make(withoutEraseCharacters: !profile.strategy.erasesWideCharactersByColumn)
        defer { noScroll?.remove() }
        var opened = noScroll.flatMap { entry in entry.with { sdg_curses_open(NoScrollTerminfo.name) } }
        // Without the terminal's scroll capabilities (`NoScrollTerminfo`) only this screen scrolls the
        // terminal, and curses never moves lines.
        presenter = FramePresenter(strategy: profile.strategy, ownsScrolling: opened != nil)
        if opened == nil { opened = sdg_curses_open(nil) }
        guard let screen = opened else {
            throw ScreenError(message: "unknown or unusable terminal type (TERM)")
        }
        handle = screen
        colors = Int(sdg_curses_start_colors())
        self.mouse = mouse
        self.profile = profile
        size = CellSize(columns: Int(sdg_curses_cols()), rows: Int(sdg_curses_lines()))
        readWindow(askCellSize: false)  // the probe has just measured
        if mouse { write(EscapeSequence.mouseReports(true)) }
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

    /// Re-reads the size with `TIOCGWINSZ` and resizes curses; updates the cell pixel size, and
    /// re-asks it where the terminal told it in a reply (the answer comes back as input:
    /// `learnCellSize`). Never waits for the terminal.
    public func updateSize() -> CellSize {
        readWindow(askCellSize: true)
        return size
    }

    private func readWindow(askCellSize: Bool) {
        if let window = WindowSize.read(output?.savedStdout ?? 1) {
            if window.cells != size { _ = sdg_curses_resize(Int32(window.cells.rows), Int32(window.cells.columns)) }
            size = window.cells
            if let query = profile.resized(to: window), askCellSize, handle != nil {
                write(query)
                sdg_curses_flush()
            }
        }
        presenter.reset()
    }

    /// Takes the terminal's answer to a re-asked cell size; true when the cell size changed.
    public func learnCellSize(_ replies: ProbeReplies) -> Bool { profile.learn(replies) }

    /// Draws the text through curses between the bytes the `FramePresenter` plans before and after it.
    public func present(_ frame: Frame, repaintAll: Bool) {
        guard handle != nil else { return }
        let grid = frame.grid
        // A scroll moves curses' record of the physical screen the same way the terminal moves.
        let shown = presenter.present(frame, repaintAll: repaintAll, terminal: size) { scroll in
            sdg_curses_scrolled(Int32(scroll.rows.lowerBound), Int32(scroll.rows.upperBound), Int32(scroll.lines)) == 0
        }
        let scrolled = shown.scroll?.rows ?? 0..<0
        for row in 0..<min(grid.size.rows, size.rows) {
            for column in 0..<min(grid.size.columns, size.columns) {
                let cell = grid[column, row]
                // Scrolled rows are all put: curses' own copy of them (stdscr) did not move.
                if let previous = shown.previous, previous[column, row] == cell, !scrolled.contains(row) { continue }
                if cell.text.isEmpty { continue }  // right half of a wide character
                put(cell, column: column, row: row)
            }
        }
        if repaintAll { sdg_curses_force_repaint() }
        write(shown.uploads)
        write(shown.beforeText)
        // ncurses writes its own output buffer straight to the descriptor in doupdate(): what stdio
        // holds must reach the terminal first, or the erase lands after (and wipes) the new text.
        sdg_curses_flush()
        _ = sdg_curses_update()
        write(shown.afterText)
        sdg_curses_flush()
    }

    /// Restores the terminal: mouse reports off, `endwin`. Idempotent.
    public func close() {
        guard let screen = handle else { return }
        handle = nil
        write(presenter.closingBytes())
        if focusReports { write(EscapeSequence.focusReports(false)) }
        finishOutput()  // everything queued reaches the terminal before endwin writes to it
        if mouse { write(EscapeSequence.mouseReports(false)) }
        sdg_curses_close(screen)
    }

    /// Ctrl-Z: leaves nothing of ours on screen (kitty images deleted, mouse reports off), gives the
    /// terminal back (`endwin`) and stops the process group with SIGTSTP; when continued, takes the
    /// terminal again (mouse on, size read again: it may have changed meanwhile). Everything is
    /// forgotten, so the next frame repaints all.
    public func suspend() {
        guard handle != nil else { return }
        let queued = output != nil
        write(presenter.closingBytes())
        if focusReports { write(EscapeSequence.focusReports(false)) }
        finishOutput()
        if mouse { write(EscapeSequence.mouseReports(false)) }
        sdg_curses_suspend()
        if mouse { write(EscapeSequence.mouseReports(true)) }
        sdg_curses_flush()
        if queued { queueOutput(wakeDescriptor: wakeDescriptor) }
        if focusReports { write(EscapeSequence.focusReports(true)) }
        _ = updateSize()
    }

    /// Turns focus reports on (`CSI ?1004h`): the terminal sends `CSI I` when its window gains focus
    /// and `CSI O` when it loses it; off again on close and around Ctrl-Z.
    public func reportFocus() {
        guard handle != nil, !focusReports else { return }
        focusReports = true
        write(EscapeSequence.focusReports(true))
        sdg_curses_flush()
    }

    /// `OSC 52 ; c ; base64 BEL`: the terminal (or tmux with `set-clipboard on`) sets the clipboard.
    /// The text is the user's own list entry; base64 keeps every byte of it out of the terminal's
    /// parser.
    public func copyToClipboard(_ text: String) {
        guard handle != nil else { return }
        write(EscapeSequence.setClipboard(base64: Data(text.utf8).base64EncodedString()))
        sdg_curses_flush()
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
