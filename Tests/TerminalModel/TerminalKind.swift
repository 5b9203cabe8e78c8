/// The terminals the model imitates, where they differ in what happens to images.
///
/// | kind | images | text over an image | forward scroll (`SU`, LF at the margin) | reverse scroll (`SD`) |
/// |---|---|---|---|---|
/// | `xterm` (379, `-ti vt340`) | sixel | erases those cells | moves them | moves the pixels, **not** its record of them |
/// | `mlterm` (3.9) | sixel | erases those cells | moves them | moves them |
/// | `kitty` (0.26) | kitty APC placements | nothing (images above text) | moves them | moves them |
/// | `tmux` (3.3a) | none: half-blocks are text | — | — | — |
/// | `tmux35` (3.5a in xterm) | sixel, kept by tmux (at most 9) | frees them | frees them | frees them |
/// | `tmuxKitty` (3.5a in kitty 0.41) | kitty placeholders: text cells | replaces them (text) | moves them (text) | moves them (text) |
///
/// xterm's stale record (checked in real xterm, `TerminalModelFidelityTests`): after a reverse scroll
/// exposes a band, the next text written below that band repaints the band from the record, so the
/// images that were in it before the scroll come back there (and stay where they moved to as well).
///
/// kitty 0.26 quirks: a full-screen erase (`CSI 2 J`) deletes every placement; `a=d,d=I` (any
/// uppercase delete) also frees the data of every image that has no placement at that moment; a
/// put (`a=p`) of an image the terminal does not hold fails with ENOENT and shows nothing.
public enum TerminalKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// xterm with sixel (`-ti vt340`).
    case xterm
    /// mlterm (sixel).
    case mlterm
    /// kitty 0.26 (kitty graphics protocol).
    case kitty
    /// tmux 3.3a: text only (half-blocks); sixel and APC strings are dropped.
    case tmux
    /// tmux 3.5a drawing sixel itself, in a sixel terminal: it keeps each sixel as an image of the
    /// pane (at most 9, the oldest freed), frees the ones text covers (every one on a row an erase
    /// touches) and, once the program's output is processed, redraws the pane: text, then the
    /// images it still keeps (`TerminalModel+Tmux.swift`).
    case tmux35
    /// tmux 3.5a inside kitty 0.41: kitty images uploaded through tmux's passthrough (`ESC P tmux;`)
    /// with virtual placements (`U=1`), shown wherever the text holds Unicode placeholder cells
    /// (U+10EEEE, the id in the foreground colour, row and column as combining marks). The pictures
    /// are text: tmux scrolls, clips and erases them as text.
    case tmuxKitty

    /// Whether the kind shows sixel images.
    public var showsSixel: Bool { self == .xterm || self == .mlterm || self == .tmux35 }
    /// Whether tmux keeps the images and redraws them (`tmux35`).
    public var keepsImagesLikeTmux: Bool { self == .tmux35 }
    /// Whether the kind shows kitty graphics placed directly.
    public var showsKitty: Bool { self == .kitty }
    /// Whether the kind shows kitty images through Unicode placeholder cells (their uploads come
    /// through tmux's passthrough).
    public var showsPlaceholders: Bool { self == .tmuxKitty }
    /// Whether text written (or erased) over an image's cells removes the image there.
    public var textErasesImages: Bool { showsSixel }  // tmux35: its outer terminal does
    /// Whether a reverse scroll (`SD`, content down) moves the terminal's record of images with the
    /// text (xterm moves only the pixels on screen).
    public var reverseScrollMovesImages: Bool { self != .xterm }

    public var description: String { rawValue }
}
