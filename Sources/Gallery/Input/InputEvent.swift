import TerminalGraphics

/// One decoded input event from the terminal.
public enum InputEvent: Sendable, Hashable {
    /// A character (printable, or a control character such as Ctrl-C = U+0003, Enter = U+000D).
    case character(Unicode.Scalar)
    /// A special key.
    case key(SpecialKey)
    /// A mouse event (SGR 1006 encoding), 0-based cell coordinates.
    case mouse(MouseEvent)
    /// A kitty graphics reply other than OK (`ENOENT: Put command refers to non-existent image`):
    /// the terminal refused a command. Not a key; counted for `--stats`.
    case graphicsReply(String)
    /// The terminal's answer to a cell-size query (`CSI 6 ; h ; w t` or `CSI 4 ; h ; w t`), asked again
    /// after a resize (`TerminalProfile.resized`). Not a key.
    case cellSizeReply(ProbeReplies)
    /// The terminal's window gained (true) or lost focus (`CSI I` / `CSI O`, with focus reports on).
    case focus(Bool)
}

/// Keys that are not characters.
public enum SpecialKey: Sendable, Hashable {
    /// Cursor keys.
    case up, down, left, right
    /// Paging and jumping keys.
    case pageUp, pageDown, home, end
    /// Other editing keys.
    case insert, delete, backspace, enter, escape, tab
}

/// A mouse button press, release or wheel step.
public struct MouseEvent: Sendable, Hashable {
    /// Which button.
    public enum Button: Sendable, Hashable { case left, middle, right, wheelUp, wheelDown, other }

    /// The button.
    public var button: Button
    /// True for a press (or wheel step), false for a release.
    public var pressed: Bool
    /// True when the pointer moved with the button held (drag).
    public var motion: Bool
    /// 0-based column.
    public var column: Int
    /// 0-based row.
    public var row: Int

    /// Creates an event.
    public init(button: Button, pressed: Bool, motion: Bool = false, column: Int, row: Int) {
        self.button = button
        self.pressed = pressed
        self.motion = motion
        self.column = column
        self.row = row
    }
}
