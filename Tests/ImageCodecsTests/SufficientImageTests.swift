import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// `sufficientImage()`: final at the target size before the end only when the target is at most
/// 1/8 of the image per axis and the first scan (JPEG DC) or pass (Adam7) of it is in, or (JPEG)
/// at most 1/4 or 1/2 and the scans its scan script gives that scale's coefficients in.
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
        let (full, _) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 77, height: 45), dropping: 2)
        #expect(full.sufficientImage() == nil)  // the full scale: only the end is final
        let (header, _) = try Self.feed("jpeg/progressive.jpg", target: PixelSize(width: 10, height: 6), dropping: 1500)
        #expect(header.sufficientImage() == nil)  // the DC scan is not in yet
        let (baseline, _) = try Self.feed("jpeg/baseline.jpg", target: PixelSize(width: 4, height: 4), dropping: 2)
        #expect(baseline.sufficientImage() == nil)  // rows are final only at the end
    }

    /// libjpeg's default script (10 scans): 1/4 is final once scan 4 is in (luma 1–5 at Al 2, both
    /// chroma 1–63 at Al 1), 1/2 once scan 6 is (luma 1–63 at Al 1). A scan counts as in when the
    /// next one's header has been read.
    @Test func aProgressiveJPEGIsSufficientAtOneQuarterAndOneHalfAfterTheScansItsScriptGivesThem() throws {
        let data = try Fixtures.data("codecs/jpeg/progressive.jpg")
        let starts = JPEGScans.starts(data)
        try #require(starts.count == 10)
        func sufficient(_ target: PixelSize, through scans: Int) -> Image? {
            let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: target))
            decoder.append(data.prefix(starts[scans] + 16))  // the next scan's header (14 bytes for 3 components)
            return decoder.sufficientImage()
        }
        let quarter = PixelSize(width: 20, height: 12), half = PixelSize(width: 39, height: 23)  // of 77×45
        #expect(sufficient(quarter, through: 3) == nil)
        #expect(sufficient(quarter, through: 4)?.size == quarter)
        #expect(sufficient(half, through: 5) == nil)
        #expect(sufficient(half, through: 6)?.size == half)
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
