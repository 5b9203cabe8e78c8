import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// `sufficientImage()`: final at the target size before the end only when the target is at most
/// 1/8 of the image per axis and the first scan (JPEG DC) or pass (Adam7) of it is in.
@Suite struct SufficientImageTests {
    static func feed(_ name: String, target: PixelSize, dropping tail: Int) throws -> (any IncrementalDecoding, Data) {
        let data = try Fixtures.data("codecs/\(name)")
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: target))
        decoder.append(data.prefix(data.count - tail))
        return (decoder, data)
    }

    @Test func aProgressiveJPEGIsSufficientAtOneEighthOnceItsDCScanIsIn() throws {
        // 77×45: 1/8 is 10×6.
        let (small, _) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 10, height: 6), dropping: 2)
        #expect(small.sufficientImage()?.size == PixelSize(width: 10, height: 6))
        let (large, _) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 20, height: 12), dropping: 2)
        #expect(large.sufficientImage() == nil)
        let (header, _) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 10, height: 6), dropping: 1500)
        #expect(header.sufficientImage() == nil)  // the DC scan is not in yet
        let (baseline, _) = try Self.feed("jpeg/baseline.jpg", target: PixelSize(width: 4, height: 4), dropping: 2)
        #expect(baseline.sufficientImage() == nil)  // rows are final only at the end
    }

    @Test func theDCImageMatchesAOneShotDecodeAtTheSameSize() throws {
        let (decoder, data) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 10, height: 6), dropping: 2)
        let early = try #require(decoder.sufficientImage())
        let whole = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 10, height: 6)))
        var worst = 0
        for y in 0..<6 {
            for x in 0..<10 {
                let a = early.pixel(x: x, y: y), b = whole.pixel(x: x, y: y)
                worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        #expect(worst <= 8, "largest channel difference \(worst)")  // DC without its last refinement bits
    }
}
