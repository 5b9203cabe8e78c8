/// A text colour: the terminal's default, one of the 256 palette entries, or 24-bit RGB (reduced to
/// the palette by screens that cannot show it).
public enum ScreenColor: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case terminalDefault
    /// xterm palette index (0–15 basic, 16–231 cube, 232–255 grays).
    case palette(UInt8)
    /// 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The nearest xterm-256 palette index (cube or gray ramp) for an RGB colour.
    public static func nearestPaletteIndex(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let steps = [0, 95, 135, 175, 215, 255]
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grayIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grayValue = 8 + 10 * grayIndex
        func distance(_ cr: Int, _ cg: Int, _ cb: Int) -> Int {
            (cr - Int(r)) * (cr - Int(r)) + (cg - Int(g)) * (cg - Int(g)) + (cb - Int(b)) * (cb - Int(b))
        }
        let cubeDistance = distance(steps[lr], steps[lg], steps[lb])
        let grayDistance = distance(grayValue, grayValue, grayValue)
        return UInt8(grayDistance < cubeDistance ? 232 + grayIndex : cube)
    }
}

/// How a text cell looks: colours and attributes.
public struct TextStyle: Sendable, Hashable {
    /// Foreground colour.
    public var foreground: ScreenColor
    /// Background colour.
    public var background: ScreenColor
    /// Bold (bright) text.
    public var bold: Bool
    /// Dim (faint) text.
    public var dim: Bool
    /// Swapped foreground and background (the selection on a colourless terminal).
    public var reverse: Bool
    /// Underlined text.
    public var underline: Bool

    /// Creates a style.
    public init(foreground: ScreenColor = .terminalDefault, background: ScreenColor = .terminalDefault,
                bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// Default colours, no attributes.
    public static let plain = TextStyle()
}
