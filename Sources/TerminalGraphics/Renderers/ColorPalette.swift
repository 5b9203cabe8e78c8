#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nearest-colour lookups into the xterm 256-colour palette (cube + gray ramp) and the 16 ANSI
/// colours, measured in OKLab (a perceptual space) rather than RGB.
enum ColorPalette {
    /// The six levels of the xterm 6×6×6 cube (indices 16…231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default 16 colours (indices 0…15).
    static let ansi16: [RGBColor] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { RGBColor(r: UInt8($0.0), g: UInt8($0.1), b: UInt8($0.2)) }

    /// The RGB value of a 256-palette index ≥ 16.
    static func color256(_ index: Int) -> RGBColor {
        if index < 16 { return ansi16[max(0, index)] }
        if index >= 232 {
            let v = UInt8(8 + 10 * (index - 232))
            return RGBColor(r: v, g: v, b: v)
        }
        let i = index - 16
        return RGBColor(r: UInt8(cubeLevels[i / 36]), g: UInt8(cubeLevels[(i / 6) % 6]), b: UInt8(cubeLevels[i % 6]))
    }

    /// OKLab of every 256-palette entry.
    static let lab256: [OKLab] = (0..<256).map { OKLab(color256($0)) }
    /// OKLab of the 16 ANSI colours.
    static let lab16: [OKLab] = ansi16.map(OKLab.init)

    /// The nearest index in 16…255 (the theme-independent part). Candidates: the 8 cube entries whose
    /// channels bracket the colour's, and the 2 grays bracketing its mean; the winner is the closest
    /// in OKLab.
    static func nearest256(_ c: RGBColor) -> Int {
        let lab = OKLab(c)
        var best = 16
        var bestDistance = Float.infinity
        func consider(_ index: Int) {
            let d = lab.distanceSquared(lab256[index])
            if d < bestDistance {
                bestDistance = d
                best = index
            }
        }
        let r = bracket(Int(c.r)), g = bracket(Int(c.g)), b = bracket(Int(c.b))
        for ri in r { for gi in g { for bi in b { consider(16 + 36 * ri + 6 * gi + bi) } } }
        let mean = (Int(c.r) + Int(c.g) + Int(c.b)) / 3
        let low = max(0, min(23, (mean - 8) / 10))
        consider(232 + low)
        consider(232 + min(23, low + 1))
        return best
    }

    /// The nearest of the 16 ANSI colours.
    static func nearest16(_ c: RGBColor) -> Int {
        let lab = OKLab(c)
        var best = 0
        var bestDistance = Float.infinity
        for (index, entry) in lab16.enumerated() {
            let d = lab.distanceSquared(entry)
            if d < bestDistance {
                bestDistance = d
                best = index
            }
        }
        return best
    }

    /// The cube level indices just below and above `v` (one index when `v` is a level).
    static func bracket(_ v: Int) -> [Int] {
        var upper = 0
        while upper < 5 && cubeLevels[upper] < v { upper += 1 }
        if cubeLevels[upper] == v || upper == 0 { return [upper] }
        return [upper - 1, upper]
    }
}

/// A colour in Björn Ottosson's OKLab space.
struct OKLab {
    var l: Float
    var a: Float
    var b: Float

    /// sRGB (8-bit) to linear light, one entry per byte value.
    static let linear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    init(_ c: RGBColor) {
        let r = Self.linear[Int(c.r)], g = Self.linear[Int(c.g)], bl = Self.linear[Int(c.b)]
        let lms = (
            cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl),
            cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl),
            cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl)
        )
        l = 0.2104542553 * lms.0 + 0.7936177850 * lms.1 - 0.0040720468 * lms.2
        a = 1.9779984951 * lms.0 - 2.4285922050 * lms.1 + 0.4505937099 * lms.2
        b = 0.0259040371 * lms.0 + 0.7827717662 * lms.1 - 0.8086757660 * lms.2
    }

    func distanceSquared(_ other: OKLab) -> Float {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }
}
