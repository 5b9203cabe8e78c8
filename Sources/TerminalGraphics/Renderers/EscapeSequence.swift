/// Builds the escape sequences the program emits, in one place: the frame writer, the curses
/// screen, the contact sheet, the probe and the renderers all take theirs from here.
public enum EscapeSequence {
    /// ESC.
    public static let esc: UInt8 = 0x1B

    /// `ESC [`, the control sequence introducer (CSI).
    public static let csiIntroducer: [UInt8] = [esc, UInt8(ascii: "[")]

    /// `ESC [` + body.
    public static func csi(_ body: String) -> [UInt8] { csiIntroducer + Array(body.utf8) }

    /// `ESC \`, the string terminator (ST) that ends DCS, OSC and APC strings.
    public static let stringTerminator: [UInt8] = [esc, UInt8(ascii: "\\")]

    /// `ESC ] body ST` (an operating system command).
    public static func osc(_ body: String) -> [UInt8] { [esc, UInt8(ascii: "]")] + Array(body.utf8) + stringTerminator }

    /// `ESC _ body` without its terminator (an application program command: kitty graphics).
    public static func apcIntroducer(_ body: String) -> [UInt8] { [esc, UInt8(ascii: "_")] + Array(body.utf8) }

    /// `ESC P body` without its terminator (a device control string: tmux passthrough, sixel).
    public static func dcsIntroducer(_ body: String) -> [UInt8] { [esc, UInt8(ascii: "P")] + Array(body.utf8) }

    // MARK: Cursor

    /// `CSI row ; column H` (1-based; values below 1 count as 1).
    public static func cursorPosition(row: Int, column: Int) -> [UInt8] { csi("\(max(1, row));\(max(1, column))H") }

    /// `CSI n A`: up `n` rows (nothing for 0).
    public static func cursorUp(_ n: Int) -> [UInt8] { n > 0 ? csi("\(n)A") : [] }

    /// `CSI n B`: down `n` rows (nothing for 0).
    public static func cursorDown(_ n: Int) -> [UInt8] { n > 0 ? csi("\(n)B") : [] }

    /// `CSI n G`: to column `n` (1-based).
    public static func cursorColumn(_ n: Int) -> [UInt8] { csi("\(max(1, n))G") }

    /// `ESC 7` (DECSC): save the cursor and its attributes.
    public static let saveCursor: [UInt8] = [esc, UInt8(ascii: "7")]

    /// `ESC 8` (DECRC): restore what `saveCursor` saved.
    public static let restoreCursor: [UInt8] = [esc, UInt8(ascii: "8")]

    // MARK: Text

    /// `CSI 0 m`.
    public static let reset: [UInt8] = csi("0m")

    /// `CSI n X` (ECH): erase `n` characters from the cursor on, without moving it.
    public static func eraseCharacters(_ n: Int) -> [UInt8] { csi("\(n)X") }

    // MARK: Scrolling

    /// `CSI top ; bottom r` (DECSTBM, 1-based rows): the scroll region.
    public static func scrollRegion(top: Int, bottom: Int) -> [UInt8] { csi("\(top);\(bottom)r") }

    /// `CSI r`: the scroll region back to the whole screen.
    public static let resetScrollRegion: [UInt8] = csi("r")

    /// `CSI n S` (SU) for `lines > 0`, `CSI n T` (SD) for `lines < 0`: scroll the region's content up
    /// (the view moves down the list) or down.
    public static func scroll(lines: Int) -> [UInt8] { lines > 0 ? csi("\(lines)S") : csi("\(-lines)T") }

    // MARK: Modes

    /// Begin synchronized output (`CSI ? 2026 h`).
    public static let beginSynchronizedUpdate: [UInt8] = csi("?2026h")

    /// End synchronized output (`CSI ? 2026 l`).
    public static let endSynchronizedUpdate: [UInt8] = csi("?2026l")

    /// SGR mouse reports on (`CSI ? 1000 h`, `CSI ? 1006 h`) or off (the reverse order).
    public static func mouseReports(_ on: Bool) -> [UInt8] { on ? csi("?1000h") + csi("?1006h") : csi("?1006l") + csi("?1000l") }

    /// Focus reports (`CSI ? 1004 h`/`l`): the terminal sends `CSI I` / `CSI O`.
    public static func focusReports(_ on: Bool) -> [UInt8] { csi(on ? "?1004h" : "?1004l") }

    /// `OSC 52 ; c ; base64 BEL`: put text on the clipboard (BEL-terminated: tmux and older
    /// terminals take that form).
    public static func setClipboard(base64: String) -> [UInt8] { [esc, UInt8(ascii: "]")] + Array("52;c;\(base64)".utf8) + [0x07] }

    // MARK: Queries

    /// `CSI > q` (XTVERSION): the terminal's name and version.
    public static let terminalVersionQuery: [UInt8] = csi(">q")
    /// `CSI 16 t`: the cell size in pixels (`CSI 6 ; h ; w t`).
    public static let cellSizeQuery: [UInt8] = csi("16t")
    /// `CSI 14 t`: the text area's size in pixels (`CSI 4 ; h ; w t`).
    public static let windowSizeQuery: [UInt8] = csi("14t")
    /// `CSI ? 2 ; 1 ; 0 S` (XTSMGRAPHICS): the largest sixel bitmap (xterm answers only this form).
    public static let graphicsGeometryQuery: [UInt8] = csi("?2;1;0S")
    /// `CSI ? 2026 $ p` (DECRQM): whether synchronized output is known.
    public static let synchronizedOutputQuery: [UInt8] = csi("?2026$p")
    /// `OSC 11 ; ? ST`: the background colour.
    public static let backgroundColorQuery: [UInt8] = osc("11;?")
    /// `CSI c` (DA1): primary device attributes; every terminal answers it.
    public static let primaryDeviceAttributesQuery: [UInt8] = csi("c")

    /// Appends a decimal number's ASCII digits (faster than string interpolation in hot loops).
    @inline(__always)
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 100 { out.append(UInt8(48 + value / 100)) }
        if value >= 10 { out.append(UInt8(48 + (value / 10) % 10)) }
        out.append(UInt8(48 + value % 10))
    }
}
