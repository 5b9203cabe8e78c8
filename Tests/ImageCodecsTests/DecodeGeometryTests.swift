import Testing
@testable import ImageCodecs

@Suite struct DecodeGeometryTests {
    @Test func picksTheSmallestDCTScaleThatCoversTheBox() {
        let source = PixelSize(width: 4000, height: 3000)
        #expect(DecodeGeometry(stored: source, box: PixelSize(width: 320, height: 200)).jpegScaleDenominator == 8)
        #expect(DecodeGeometry(stored: source, box: PixelSize(width: 800, height: 800)).jpegScaleDenominator == 4)
        #expect(DecodeGeometry(stored: source, box: PixelSize(width: 1500, height: 2000)).jpegScaleDenominator == 2)
        #expect(DecodeGeometry(stored: source, box: PixelSize(width: 3000, height: 3000)).jpegScaleDenominator == 1)
        #expect(DecodeGeometry(stored: source, box: nil).jpegScaleDenominator == 1)
    }

    @Test func rotatedImagesFitTheBoxInDisplayAxes() {
        let g = DecodeGeometry(stored: PixelSize(width: 4000, height: 3000), orientation: .right, box: PixelSize(width: 300, height: 400))
        #expect(g.display == PixelSize(width: 3000, height: 4000))
        #expect(g.target == PixelSize(width: 400, height: 300))  // stored axes; becomes 300×400 once rotated
    }

    @Test func pixelCapUsesTheStoredSize() {
        let g = DecodeGeometry(stored: PixelSize(width: 30000, height: 30000), box: PixelSize(width: 10, height: 10))
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) { try g.checkLimit(DecodeOptions.defaultPixelLimit) }
    }
}
