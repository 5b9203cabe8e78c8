/// The best two-colour split of one cell's sub-pixels, and the glyph that draws it.
struct MosaicSplit {
    /// Sub-pixels in the foreground (bit i = sub-pixel i, row-major, 2 per row); never all of them.
    var mask: Int
    /// Mean colour of the masked sub-pixels.
    var foreground: RGBColor
    /// Mean colour of the others.
    var background: RGBColor

    /// Tries every split (the last sub-pixel always in the background, so each split is tried once)
    /// and keeps the one with the least squared error against the two groups' means. `pixels` holds
    /// `count` RGB triples.
    static func best(_ pixels: [Int], count: Int) -> MosaicSplit {
        var total = (0, 0, 0)
        for i in 0..<count {
            total.0 += pixels[i * 3]; total.1 += pixels[i * 3 + 1]; total.2 += pixels[i * 3 + 2]
        }
        // Error = Σ|x|² − |S_fg|²/n_fg − |S_bg|²/n_bg: Σ|x|² is the same for every split, so the best
        // split has the largest |S_fg|²/n_fg + |S_bg|²/n_bg.
        var bestMask = 0
        var bestScore = -1.0
        for mask in 0..<(1 << (count - 1)) {
            var sum = (0, 0, 0)
            var n = 0
            for i in 0..<count where mask & (1 << i) != 0 {
                sum.0 += pixels[i * 3]; sum.1 += pixels[i * 3 + 1]; sum.2 += pixels[i * 3 + 2]
                n += 1
            }
            let rest = (total.0 - sum.0, total.1 - sum.1, total.2 - sum.2)
            let fg = n == 0 ? 0 : Double(sum.0 * sum.0 + sum.1 * sum.1 + sum.2 * sum.2) / Double(n)
            let bg = Double(rest.0 * rest.0 + rest.1 * rest.1 + rest.2 * rest.2) / Double(count - n)
            // Ties go to the simpler split (fewer foreground sub-pixels; 0: one colour).
            if fg + bg > bestScore + 1e-6 {
                bestScore = fg + bg
                bestMask = mask
            }
        }
        let full = (1 << count) - 1
        return MosaicSplit(mask: bestMask, foreground: mean(pixels, count: count, mask: bestMask),
                           background: mean(pixels, count: count, mask: full & ~bestMask))
    }

    /// The mean colour of the sub-pixels in `mask` (black for none).
    static func mean(_ pixels: [Int], count: Int, mask: Int) -> RGBColor {
        var sum = (0, 0, 0), n = 0
        for i in 0..<count where mask & (1 << i) != 0 {
            sum.0 += pixels[i * 3]; sum.1 += pixels[i * 3 + 1]; sum.2 += pixels[i * 3 + 2]
            n += 1
        }
        guard n > 0 else { return .black }
        return RGBColor(r: UInt8((sum.0 + n / 2) / n), g: UInt8((sum.1 + n / 2) / n), b: UInt8((sum.2 + n / 2) / n))
    }

    /// Quadrant glyphs by mask (bit 0 upper left, 1 upper right, 2 lower left, 3 lower right).
    static let quadrantScalars: [UInt32] = [
        0x20, 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588,
    ]

    /// The UTF-8 glyph drawing `mask` in the foreground colour. Sextant masks (bit 0 upper left …
    /// bit 5 lower right) map to U+1FB00… in order, skipping the two half blocks Unicode already had
    /// (left `▌` = 21, right `▐` = 42).
    static func glyph(mask: Int, layout: MosaicLayout) -> [UInt8] {
        let scalar: UInt32
        switch layout {
        case .quadrants:
            scalar = quadrantScalars[mask & 15]
        case .sextants:
            switch mask & 63 {
            case 0: scalar = 0x20
            case 21: scalar = 0x258C
            case 42: scalar = 0x2590
            case 63: scalar = 0x2588
            case let m: scalar = 0x1FB00 + UInt32(m - 1 - (m > 21 ? 1 : 0) - (m > 42 ? 1 : 0))
            }
        }
        return Array(String(Character(Unicode.Scalar(scalar) ?? " ")).utf8)
    }
}
