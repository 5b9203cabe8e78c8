import Testing
@testable import ImageCodecs

@Suite struct ImageScalerTests {
    @Test func uniformColourSurvivesAnyRatio() {
        let source = Bitmap(width: 13, height: 7, pixels: Array(repeating: [200, 100, 50, 255], count: 13 * 7).flatMap { $0 })
        for size in [PixelSize(width: 5, height: 3), PixelSize(width: 1, height: 1), PixelSize(width: 12, height: 7)] {
            let out = source.scaled(to: size)
            #expect(out.size == size)
            #expect(out.pixels == Array(repeating: [200, 100, 50, 255], count: size.area).flatMap { $0 })
        }
    }

    @Test func averagesAreasAndWeightsColourByAlpha() {
        // 2×1 → 1×1: white opaque next to transparent black: colour stays white, alpha halves.
        let out = Bitmap(width: 2, height: 1, pixels: [255, 255, 255, 255, 0, 0, 0, 0]).scaled(to: PixelSize(width: 1, height: 1))
        #expect(out.pixels == [255, 255, 255, 128])
        // 3×1 → 2×1: the middle pixel is split half and half.
        let split = Bitmap(width: 3, height: 1, pixels: [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]).scaled(to: PixelSize(width: 2, height: 1))
        #expect(split.pixels == [30, 30, 30, 255, 150, 150, 150, 255])
    }
}
