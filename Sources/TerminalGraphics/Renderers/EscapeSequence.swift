/// Builds the escape sequences this module emits, in one place.
public enum EscapeSequence {
    /// ESC.
    public static let esc: UInt8 = 0x1B

    /// `ESC [` + body.
    public static func csi(_ body: String) -> [UInt8] { [esc, UInt8(ascii: "[")] + Array(body.utf8) }

    /// `CSI row ; column H` (1-based; values below 1 count as 1).
    public static func cursorPosition(row: Int, column: Int) -> [UInt8] { csi("\(max(1, row));\(max(1, column))H") }

    /// `CSI 0 m`.
    public static let reset: [UInt8] = csi("0m")

    /// Begin synchronized output (`CSI ? 2026 h`).
    public static let beginSynchronizedUpdate: [UInt8] = csi("?2026h")

    /// End synchronized output (`CSI ? 2026 l`).
    public static let endSynchronizedUpdate: [UInt8] = csi("?2026l")

    /// Appends a decimal number's ASCII digits (faster than string interpolation in hot loops).
    @inline(__always)
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value >= 100 { out.append(UInt8(48 + value / 100)) }
        if value >= 10 { out.append(UInt8(48 + (value / 10) % 10)) }
        out.append(UInt8(48 + value % 10))
    }
}
