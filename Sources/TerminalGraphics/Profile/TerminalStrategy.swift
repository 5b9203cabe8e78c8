import ImageCodecs

/// How this program draws on one terminal with one renderer: every operation that differs from one
/// terminal to the next, chosen once by `TerminalProfile` (its `strategy`). The gallery's screen,
/// frame writer, composer and runner ask it; none of them switches on a renderer or a terminal.
///
/// The operations: *scroll* (whether a scroll region moves the images with the text, each way),
/// *erase* (`ECH`, or spaces where tmux draws the images, after kitty's delete by cell where bitmaps
/// are placements text does not erase), *cover* (blank a rectangle before an image goes there),
/// *overwrite* (whether text leaves the images beside it alone), the frame's bracket (synchronized
/// output) and what a lost focus costs. Placing and deleting an image by id are the picture's own
/// (`RenderedImage.placed(atColumn:row:)`).
///
/// ```swift
/// let strategy = TerminalProfile.detect().strategy
/// if strategy.scrollsImages(lines: -3) { /* scroll the region, draw the exposed rows */ }
/// bytes += strategy.erase(CellRect(column: 0, row: 2, columns: 10, rows: 4))
/// ```
public struct TerminalStrategy: Sendable, Hashable {
    /// Whether frames are wrapped in synchronized output (mode 2026).
    public var synchronizedOutput = false
    /// Whether the terminal moves the images with the text when a region scrolls up (the view going
    /// down the list; `RendererSelection.scrollsWithText`): then a scrolled grid costs its exposed rows.
    public var scrollsUpWithText = false
    /// Whether it does so when a region scrolls down too (`RendererSelection.scrollsBackWithText`).
    public var scrollsDownWithText = false
    /// Whether text leaves the images on the rest of its row alone
    /// (`RendererSelection.textOverwritesOnlyItsCells`): then only the images under changed text are
    /// sent again, else every image on a changed row, and loading cells keep such rows quiet.
    public var textOverwritesOnlyItsCells = false
    /// How tmux keeps the images when it draws them itself (`TmuxImages`): every image is covered
    /// with spaces before it is written, nothing is erased with `ECH`, and at most `limit` are shown.
    public var tmuxImages: TmuxImages?
    /// Whether sixel or iTerm2 images are placements text does not erase, to be deleted with kitty's
    /// delete by cell: a terminal that answered the kitty graphics query (Konsole: a forced sixel left
    /// strips of replaced images; kitty's delete removes them). Never sent to a terminal that did not
    /// answer.
    public var deletesBitmapsByCell = false
    /// Whether `ECH` (erase characters) over double-width characters erases the columns it names.
    /// Not in mlterm (3.9): a grid → list switch left "4 Gamma 5" and "□ 1" of old captions beside
    /// "ＦＵＬＬＷＩＤＴＨ" until Ctrl-L (1,003 px; the bytes: ncurses' `CSI 28 X` over the caption);
    /// there curses gets no `ech` and writes spaces (0 px over the same keys).
    public var erasesWideCharactersByColumn = true
    /// Whether the terminal keeps the images in a record of its own that losing the window can spoil
    /// (sixel: xterm restored 8 of 32 after an unmap and map): the gallery repaints when focus returns.
    public var repaintsOnFocus = false

    /// A terminal that moves nothing with text and erases with `ECH` (tests, and screens that do not say).
    public init() {}

    /// The strategy for `selection` on a terminal with `capabilities` (what `TerminalProfile` decides).
    public init(selection: RendererSelection, capabilities caps: TerminalCapabilities, synchronizedOutput: Bool) {
        self.synchronizedOutput = synchronizedOutput
        scrollsUpWithText = selection.scrollsWithText(terminal: caps.terminalName)
        scrollsDownWithText = selection.scrollsBackWithText(terminal: caps.terminalName)
        textOverwritesOnlyItsCells = selection.textOverwritesOnlyItsCells(terminal: caps.terminalName)
        tmuxImages = TmuxImages(selection: selection, capabilities: caps)
        let bitmapPlacedByText = selection.kind == .sixel || selection.kind == .iterm2
        deletesBitmapsByCell = caps.graphics == .kitty && !caps.inTmux && bitmapPlacedByText
        erasesWideCharactersByColumn = caps.inTmux || !(caps.terminalName?.lowercased().contains("mlterm") ?? false)
        if case .sixel = selection.kind { repaintsOnFocus = true }
    }

    /// Whether a scroll of `lines` (positive: the content moves up) moves the images with the text.
    public func scrollsImages(lines: Int) -> Bool { lines > 0 ? scrollsUpWithText : scrollsDownWithText }

    /// Whether every image is covered with spaces before it is written (tmux draws the images).
    public var coversBeforePlacing: Bool { tmuxImages != nil }

    /// The most images the grid may show at once; nil when the terminal keeps any number.
    public var imageLimit: Int? { tmuxImages?.limit }

    /// The bytes that take whatever is drawn in `rect` off the screen (cursor moved, attributes as
    /// they are): kitty's delete of the placements at its first cell where bitmaps are placements
    /// text does not erase, then per row `ECH`, or spaces where tmux draws the images (tmux frees
    /// every image on a row an erase touches, but only those under the cells text covers).
    public func erase(_ rect: CellRect) -> [UInt8] {
        guard !rect.isEmpty else { return [] }
        var out: [UInt8] = deletesBitmapsByCell ? KittyRenderer.deletePlacements(atColumn: rect.column, row: rect.row) : []
        for row in rect.row..<rect.maxRow {
            out += EscapeSequence.cursorPosition(row: row + 1, column: rect.column + 1)
            out += coversBeforePlacing ? [UInt8](repeating: 0x20, count: rect.columns) : EscapeSequence.eraseCharacters(rect.columns)
        }
        return out
    }

    /// Bytes that start a frame (synchronized output on), or none.
    public var frameStart: [UInt8] { synchronizedOutput ? EscapeSequence.beginSynchronizedUpdate : [] }
    /// Bytes that end a frame (synchronized output off), or none.
    public var frameEnd: [UInt8] { synchronizedOutput ? EscapeSequence.endSynchronizedUpdate : [] }
}
