import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// `NeededBytes`: where the bytes a decode at a target needs end, read from the markers. The decoder
/// is the oracle: the prefix it names gives the image as final (`sufficientImage`), one byte less
/// does not; and the verdict is the same however the bytes are split.
@Suite struct NeededBytesTests {
    static func verdict(_ data: Data, box: PixelSize?, chunks: [Int]? = nil) -> NeededBytes.Verdict {
        var needed = NeededBytes(box: box)
        var offset = 0, k = 0
        while offset < data.count, needed.verdict == .undecided {
            let size = chunks.map { $0[k % $0.count] } ?? data.count
            needed.append(data.subdata(in: offset..<min(data.count, offset + size)))
            offset += size
            k += 1
        }
        return needed.verdict
    }

    static func sufficient(_ data: Data, _ box: PixelSize) -> Image? {
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: box))
        decoder.append(data)
        return decoder.sufficientImage()
    }

    /// libjpeg's default script (10 scans) of a 77×45 picture: 1/8 after scan 1, 1/4 after scan 4,
    /// 1/2 after scan 6; the needed bytes end with the next scan's header.
    @Test func aProgressiveJPEGNeedsTheScansOfItsScaleAndTheNextScansHeader() throws {
        let data = try Fixtures.data("codecs/jpeg/progressive.jpg")
        let starts = JPEGScans.starts(data)
        try #require(starts.count == 10)
        for (box, scans, denominator) in [(PixelSize(width: 10, height: 6), 1, 8), (PixelSize(width: 20, height: 12), 4, 4),
                                          (PixelSize(width: 39, height: 23), 6, 2)] {
            guard case .prefix(let count, let tier) = Self.verdict(data, box: box) else {
                Issue.record("\(box): \(Self.verdict(data, box: box))")
                continue
            }
            #expect(tier == .scale(denominator: denominator))
            #expect(count > starts[scans] && count < starts[scans] + 20, "\(box): \(count), scan \(scans + 1) at \(starts[scans])")
            #expect(Self.sufficient(data.prefix(count), box)?.size == box, "\(box): the needed bytes give the image")
            #expect(Self.sufficient(data.prefix(count - 1), box) == nil, "\(box): one byte less does not")
            for chunks in [[1], [7, 300, 2], [4096]] {
                #expect(Self.verdict(data, box: box, chunks: chunks) == .prefix(count: count, tier: tier), "\(box) in chunks of \(chunks)")
            }
        }
        #expect(Self.verdict(data, box: PixelSize(width: 77, height: 45)) == .all, "the full scale needs every byte")
        #expect(Self.verdict(data, box: nil) == .all)
        #expect(Self.verdict(data.prefix(starts[0] + 5), box: PixelSize(width: 10, height: 6)) == .undecided)
    }

    @Test func baselineJPEGsAndOtherFormatsNeedEveryByte() throws {
        #expect(Self.verdict(try Fixtures.data("codecs/jpeg/baseline.jpg"), box: PixelSize(width: 4, height: 4)) == .all)
        #expect(Self.verdict(try Fixtures.data("codecs/png/adam7.png"), box: PixelSize(width: 4, height: 4)) == .all)
        #expect(Self.verdict(Data([0xFF, 0xD8, 0x00, 0x11]), box: PixelSize(width: 4, height: 4)) == .all, "markers that do not parse")
    }

    /// A camera file whose EXIF thumbnail covers the cell needs its headers only (through the first
    /// scan's header, where the decoder knows the image's size); one that does not, every byte.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg"))
    func aCameraJPEGWhoseThumbnailCoversTheCellNeedsItsHeaders() throws {
        let main = try Self.cjpeg(width: 800, height: 600)
        let thumbnail = try Self.cjpeg(width: 160, height: 120)
        let data = ExifJPEG.with(main, thumbnail: thumbnail, orientation: 6)
        let box = PixelSize(width: 60, height: 80)  // display 600×800 fitted: 60×80 ≤ the thumbnail's 120×160
        guard case .prefix(let count, let tier) = Self.verdict(data, box: box) else { Issue.record("no prefix"); return }
        #expect(tier == .exifThumbnail)
        #expect(count == JPEGScans.starts(data).last.map { $0 + 14 }, "through the main image's scan header (3 components; the thumbnail's own scan comes first)")
        #expect(Self.sufficient(data.prefix(count), box)?.size == box)
        #expect(Self.verdict(data, box: PixelSize(width: 300, height: 400)) == .all, "larger than the thumbnail: baseline, every byte")
    }

    static func cjpeg(width: Int, height: Int) throws -> Data {
        let dir = try Fixtures.temporaryDirectory("needed-bytes")
        defer { try? FileManager.default.removeItem(at: dir) }
        var ppm = Data("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height { for x in 0..<width { ppm.append(contentsOf: [UInt8(x & 0xFF), UInt8(y & 0xFF), 90]) } }
        let input = dir.appendingPathComponent("in.ppm"), output = dir.appendingPathComponent("out.jpg")
        try ppm.write(to: input)
        _ = try ChildProcess.run("/usr/bin/cjpeg", ["-outfile", output.path, input.path], timeout: 60)
        return try Data(contentsOf: output)
    }
}
