import Testing
@testable import ImageCodecs

/// `PremultipliedAlpha.unpremultiply`: the one conversion SVG (cairo) and TIFF (libtiff) output goes
/// through, with the rounding the C shims used before it: (c·255 + a/2) / a, capped at 255.
@Suite struct PremultipliedAlphaTests {
    static func unpremultiplied(_ pixels: [UInt8]) -> [UInt8] {
        var pixels = pixels
        pixels.withUnsafeMutableBufferPointer { PremultipliedAlpha.unpremultiply($0) }
        return pixels
    }

    @Test func transparentPixelsBecomeZeroAndOpaqueOnesStay() {
        #expect(Self.unpremultiplied([0, 0, 0, 0, 7, 80, 255, 0]) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Self.unpremultiplied([0, 1, 254, 255, 200, 100, 50, 255]) == [0, 1, 254, 255, 200, 100, 50, 255])
    }

    @Test func aMidAlphaRoundsToNearest() {
        // Under 9: 5·255/9 = 141.67 → 142 (truncating would give 141), 4·255/9 = 113.33 → 113. Under 2:
        // 1·255/2 = 127.5 → 128 (half up). A colour over its alpha is capped at 255.
        #expect(Self.unpremultiplied([5, 4, 0, 9, 1, 64, 2, 2, 200, 100, 101, 100]) == [142, 113, 0, 9, 128, 255, 255, 2, 255, 255, 255, 100])
        #expect(Self.unpremultiplied([64, 128, 127, 128]) == [128, 255, 253, 128])
    }

    /// Every colour under every alpha: the C shims' integer formula is the exact quotient rounded
    /// half up, capped at 255.
    @Test func everyColourUnderEveryAlpha() {
        var pixels: [UInt8] = []
        for a in 0...255 { for c in 0...255 { pixels += [UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)] } }
        let out = Self.unpremultiplied(pixels)
        var mismatches = 0
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let a = Int(pixels[i + 3])
            for k in 0..<3 {
                let c = Int(pixels[i + k])
                let expected = a == 0 ? 0 : a == 255 ? c : min(255, Int((Double(c) * 255 / Double(a)).rounded(.toNearestOrAwayFromZero)))
                if Int(out[i + k]) != expected { mismatches += 1 }
            }
            if out[i + 3] != pixels[i + 3] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func aTrailingPartialPixelIsLeftAlone() {
        #expect(Self.unpremultiplied([1, 2, 3, 4, 5, 6]) == [64, 128, 191, 4, 5, 6])
    }
}
