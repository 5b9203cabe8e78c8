/// How tmux ≥ 3.4 keeps the sixel images it draws itself (`RendererSelection.chooseInTmux`), read
/// from its source (image.c, screen-write.c of 3.4 and 3.5a) and checked in xterm and foot:
/// - each sixel becomes an image of the pane, drawn again whenever tmux redraws the pane;
/// - text written over any of its cells frees it (and redraws the pane); an erase of characters or of
///   a line (`ECH`, `EL`) frees every image on that row, beside the erased cells too;
/// - a sixel written over another does not free the one below;
/// - the server keeps at most 9 images, over all its panes: a tenth frees the oldest, which vanishes at
///   the pane's next redraw. A grid of 15 cells showed its last 9 after a repaint.
///
/// So the frame writer covers a rectangle with spaces (exactly its cells) before it writes a new
/// image there, never erases with `ECH`, and the grid shows at most `limit` images.
public struct TmuxImages: Sendable, Hashable {
    /// The most images on screen at once.
    public var limit: Int
    /// The tmux version, for messages ("3.5a"); nil when unknown.
    public var version: String?

    /// Images tmux 3.4 and 3.5 keep (`all_images_count == 10` frees the oldest). Later versions are
    /// not measured here, so they are given the same.
    public static let knownLimit = 9

    /// The tmux image rules for `selection` in a terminal with `capabilities`; nil when tmux does not
    /// draw the images itself (not in tmux, passthrough, text or kitty).
    public init?(selection: RendererSelection, capabilities: TerminalCapabilities) {
        guard capabilities.tmuxSixel, case .sixel = selection.kind, !selection.tmuxPassthrough else { return nil }
        limit = Self.knownLimit
        version = capabilities.tmuxVersion.map { "\($0)" }
    }

    /// Creates rules with an explicit limit (tests).
    public init(limit: Int, version: String? = nil) {
        self.limit = limit
        self.version = version
    }

    /// The status line saying why the grid holds fewer cells than the screen could.
    public var note: String { "\(keeps): at most \(limit) on screen" }

    /// The line a contact sheet of more images prints.
    public var sheetNote: String { "\(keeps): earlier ones vanish when tmux redraws the pane" }

    private var keeps: String { "tmux\(version.map { " \($0)" } ?? "") keeps \(limit) sixel images at a time" }
}
