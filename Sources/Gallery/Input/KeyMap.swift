/// Maps input events (decoded bytes or curses key codes) to gallery actions, including mouse wheel,
/// click and double-click. Holds only the last click, to recognise double-clicks.
///
/// ```swift
/// var keys = KeyMap()
/// let actions = keys.actions(for: decoder.feed(bytes), at: clock.now)
/// ```
public struct KeyMap: Sendable {
    /// Two clicks on the same cell within this many seconds make a double-click.
    public var doubleClickInterval: Double = 0.4
    /// Item rows one wheel step scrolls.
    public var wheelRows = 1
    private var lastClick: (column: Int, row: Int, time: Double)?

    /// Creates a key map.
    public init() {}

    /// The actions for `events` received at `time` (seconds, any monotonic origin).
    public mutating func actions(for events: [InputEvent], at time: Double) -> [GalleryAction] {
        events.compactMap { action(for: $0, at: time) }
    }

    /// The action for one event, if it has one.
    public mutating func action(for event: InputEvent, at time: Double) -> GalleryAction? {
        switch event {
        case .character(let scalar): return Self.action(forCharacter: scalar)
        case .key(let key): return Self.action(forKey: key)
        case .mouse(let mouse): return action(forMouse: mouse, at: time)
        case .graphicsReply, .focus, .cellSizeReply: return nil
        }
    }

    /// Character keys: vi-style movement, paging, commands.
    public static func action(forCharacter scalar: Unicode.Scalar) -> GalleryAction? {
        switch scalar {
        case "k": return .up
        case "j": return .down
        case "h": return .left
        case "l": return .right
        case " ", "f": return .pageDown
        case "b": return .pageUp
        case "g": return .home
        case "G": return .end
        case "q": return .back
        case "v": return .toggleView
        case "?": return .toggleHelp
        case "n": return .next
        case "p": return .previous
        case "r": return .refresh
        case "R": return .refreshVisible
        case "y": return .copyURL
        case "s": return .saveOriginal
        case "a": return .toggleAnimation
        case "/": return .startFilter
        case "\u{03}": return .quit  // Ctrl-C
        case "\u{0C}": return .redraw  // Ctrl-L
        case "\u{1A}": return .suspend  // Ctrl-Z (raw mode: the terminal sends it as a byte)
        default: return nil
        }
    }

    /// The actions of `events` while the filter prompt takes the keys: text, Backspace, Enter, Esc
    /// (and Ctrl-C, which still quits).
    public static func filterActions(for events: [InputEvent]) -> [GalleryAction] {
        events.compactMap { event in
            switch event {
            case .character("\u{03}"): return .quit
            case .character("\u{7F}"), .character("\u{08}"), .key(.backspace): return .filterErase
            case .character("\r"), .character("\n"), .key(.enter): return .filterAccept
            case .key(.escape): return .filterClear
            case .character(let scalar) where scalar.value >= 0x20 && !TerminalText.isUnsafe(scalar): return .filterType(Character(scalar))
            default: return nil
            }
        }
    }

    /// Special keys.
    public static func action(forKey key: SpecialKey) -> GalleryAction? {
        switch key {
        case .up: return .up
        case .down: return .down
        case .left: return .left
        case .right: return .right
        case .pageUp: return .pageUp
        case .pageDown: return .pageDown
        case .home: return .home
        case .end: return .end
        case .enter: return .open
        case .escape: return .back
        case .backspace: return .previous
        case .tab: return .next
        case .insert, .delete: return nil
        }
    }

    /// Curses key codes (`wgetch` with `keypad` on), for callers that read input through curses.
    /// The values are ncurses' `KEY_*` constants (checked against the header in the tests).
    public static func action(forCursesKey code: Int32) -> GalleryAction? {
        switch code {
        case 0o403: return .up          // KEY_UP
        case 0o402: return .down        // KEY_DOWN
        case 0o404: return .left        // KEY_LEFT
        case 0o405: return .right       // KEY_RIGHT
        case 0o523: return .pageUp      // KEY_PPAGE
        case 0o522: return .pageDown    // KEY_NPAGE
        case 0o406: return .home        // KEY_HOME
        case 0o550: return .end         // KEY_END
        case 0o527: return .open        // KEY_ENTER
        case 0o407: return .previous    // KEY_BACKSPACE
        default:
            guard code >= 0, code < 0x110000, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            if scalar == "\r" || scalar == "\n" { return .open }
            if scalar == "\u{1B}" { return .back }
            return action(forCharacter: scalar)
        }
    }

    /// Wheel scrolls; a left press selects, a second press on the same cell soon after opens.
    mutating func action(forMouse mouse: MouseEvent, at time: Double) -> GalleryAction? {
        switch mouse.button {
        case .wheelUp: return .scroll(-wheelRows)
        case .wheelDown: return .scroll(wheelRows)
        case .left:
            guard mouse.pressed, !mouse.motion else { return nil }
            if let last = lastClick, last.column == mouse.column, last.row == mouse.row,
               time - last.time >= 0, time - last.time <= doubleClickInterval {
                lastClick = nil
                return .doubleClick(column: mouse.column, row: mouse.row)
            }
            lastClick = (mouse.column, mouse.row, time)
            return .click(column: mouse.column, row: mouse.row)
        case .middle, .right, .other: return nil
        }
    }
}
