import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// Progressive JPEG scan bombs (issue 21): decoding stops at the scan limit and shows the image as of
/// the last scan allowed, in well under two seconds, one-shot and incremental alike. Measured in CPU
/// time of the decoding thread: two cores shared by many builds make wall time a poor witness.
@Suite struct JPEGScanLimitTests {
    /// 16 megapixels, 1000 refinement scans: about 10 s of CPU without a limit.
    static let bomb = Result { try ScanBomb.make(width: 4000, height: 4000, repeats: 1000) }
    static let box = PixelSize(width: 200, height: 200)

    @Test func oneShotScanBombEndsQuicklyWithAUsableImage() throws {
        let data = try Self.bomb.get()
        let start = Self.threadCPUSeconds()
        let image = try ImageCoders.decode(data, options: DecodeOptions(targetSize: Self.box))
        let elapsed = Self.threadCPUSeconds() - start
        #expect(elapsed < 1.5, "decoding took \(elapsed) s of CPU")
        #expect(image.size == Self.box)
        #expect(abs(Int(image.pixels[0]) - 128) <= 2 && image.pixels[3] == 255)
    }

    @Test func incrementalScanBombEndsQuicklyWithAUsableImage() throws {
        let data = try Self.bomb.get()
        let start = Self.threadCPUSeconds()
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: Self.box))
        for offset in stride(from: 0, to: data.count, by: 65536) {
            decoder.append(data.subdata(in: offset..<min(data.count, offset + 65536)))
            _ = decoder.partialImage()
        }
        let image = try decoder.finish()
        let elapsed = Self.threadCPUSeconds() - start
        #expect(elapsed < 1.5, "decoding took \(elapsed) s of CPU")
        #expect(image.size == Self.box)
        #expect(abs(Int(image.pixels[0]) - 128) <= 2 && image.pixels[3] == 255)
    }

    @Test func theLimitIsTheScanCountOrTheCostBudget() {
        let options = DecodeOptions()
        #expect(options.scanLimit(area: 1_000_000) == 100)
        #expect(options.scanLimit(area: 100_000_000) == 10)
        #expect(options.scanLimit(area: 16_000_000) == 62)
        #expect(options.scanLimit(area: Int.max) == 2)
    }

    /// A file within the limit decodes every scan: the same pixels as with no limit at all.
    @Test func aNormalProgressiveFileIsUntouched() throws {
        let data = try Reference.data("jpeg/progressive.jpg")
        let limited = try ImageCoders.decode(data, options: DecodeOptions())
        let unlimited = try ImageCoders.decode(data, options: DecodeOptions(maxScans: .max, scanCostBudget: .max))
        #expect(limited.pixels == unlimited.pixels)
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
