/// The xterm palette and the reductions a terminal with fewer colours needs.
public enum PaletteColors {
    /// The 16 basic colours as xterm shows them.
    static let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value of xterm palette entry `index`.
    public static func rgb(of index: UInt8) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = Int(index)
        if i < 16 { let c = basic[i]; return (UInt8(c.0), UInt8(c.1), UInt8(c.2)) }
        if i >= 232 { let v = UInt8(8 + 10 * (i - 232)); return (v, v, v) }
        let steps: [UInt8] = [0, 95, 135, 175, 215, 255]
        let c = i - 16
        return (steps[c / 36], steps[(c / 6) % 6], steps[c % 6])
    }

    /// The nearest of the first `count` (8 or 16) basic colours.
    public static func nearestBasic(r: UInt8, g: UInt8, b: UInt8, count: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (index, c) in basic.prefix(count).enumerated() {
            let d = (c.0 - Int(r)) * (c.0 - Int(r)) + (c.1 - Int(g)) * (c.1 - Int(g)) + (c.2 - Int(b)) * (c.2 - Int(b))
            if d < bestDistance { best = index; bestDistance = d }
        }
        return best
    }

    /// A colour for a terminal with 8 or 16 colours. Light grays become white and dark grays black
    /// (so white text on a coloured background stays white, not the default foreground: black on
    /// blue for the selected caption); mid grays the terminal's default colour (nearest-colour
    /// matching would turn a mid gray into yellow); other colours the nearest basic one.
    static func reduced(r: UInt8, g: UInt8, b: UInt8, colors: Int) -> Int32 {
        if max(r, g, b) - min(r, g, b) < 24 {
            let level = (Int(r) + Int(g) + Int(b)) / 3
            if level >= 200 { return colors >= 16 ? 15 : 7 }
            if level < 64 { return 0 }
            return -1
        }
        return Int32(nearestBasic(r: r, g: g, b: b, count: min(16, max(8, colors))))
    }

    /// The curses colour number for `color` on a terminal with `colors` colours (-1 = default).
    public static func cursesColor(_ color: ScreenColor, colors: Int) -> Int32 {
        switch color {
        case .terminalDefault: return -1
        case .palette(let index):
            if Int(index) < colors { return Int32(index) }
            let c = rgb(of: index)
            return reduced(r: c.r, g: c.g, b: c.b, colors: colors)
        case .rgb(let r, let g, let b):
            if colors >= 256 { return Int32(ScreenColor.nearestPaletteIndex(r: r, g: g, b: b)) }
            return reduced(r: r, g: g, b: b, colors: colors)
        }
    }
}
