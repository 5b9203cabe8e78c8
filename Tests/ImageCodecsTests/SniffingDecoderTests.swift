import Foundation
import Testing
@testable import ImageCodecs

@Suite struct SniffingDecoderTests {
    /// Feeds `data` in `chunk`-byte pieces, asking for a partial image every ~2 KB (as a throttled
    /// downloader would); returns the distinct partial images and the final one.
    static func stream(_ data: Data, chunk: Int, options: DecodeOptions = DecodeOptions()) throws -> (partials: [Image], final: Image) {
        let decoder = ImageCoders.makeIncrementalDecoder(options: options)
        var partials: [Image] = []
        var offset = 0, sinceLast = 0
        while offset < data.count {
            let end = min(data.count, offset + chunk)
            decoder.append(data.subdata(in: offset..<end))
            sinceLast += end - offset
            offset = end
            if sinceLast >= 2048 {
                sinceLast = 0
                if let p = decoder.partialImage(), p.id != partials.last?.id { partials.append(p) }
            }
        }
        return (partials, try decoder.finish())
    }

    @Test(arguments: ["stream/baseline.jpg", "stream/progressive.jpg", "stream/rows.png", "stream/adam7.png"], [1, 7, 4096])
    func finalImageEqualsOneShotDecodeForAnyChunkSize(name: String, chunk: Int) throws {
        let data = try Reference.data(name)
        let oneShot = try ImageCoders.decode(data)
        let (partials, final) = try Self.stream(data, chunk: chunk)
        #expect(final.size == oneShot.size)
        #expect(final.pixels == oneShot.pixels)
        #expect(partials.count >= 2, "\(name) in \(chunk)-byte chunks gave \(partials.count) partial images")
        #expect(partials.allSatisfy { $0.size == oneShot.size })
    }

    @Test func progressiveJPEGShowsWholeScansAndBaselineShowsRows() throws {
        let progressive = try Self.stream(try Reference.data("stream/progressive.jpg"), chunk: 4096)
        // Every partial of a progressive file covers the whole image (a completed scan).
        let first = try #require(progressive.partials.first)
        #expect(first.pixel(x: 0, y: first.height - 1).a == 255)
        let baseline = try Self.stream(try Reference.data("stream/baseline.jpg"), chunk: 4096)
        let early = try #require(baseline.partials.first)
        #expect(early.pixel(x: 0, y: 0).a == 255)
        #expect(early.pixel(x: 0, y: early.height - 1).a == 0)   // not decoded yet
    }

    @Test func adam7ShowsEachPass() throws {
        let adam7 = try Self.stream(try Reference.data("stream/adam7.png"), chunk: 512)
        let first = try #require(adam7.partials.first)
        #expect(first.pixel(x: first.width - 1, y: first.height - 1).a > 0)  // pass 1 already spans the image
        #expect(adam7.partials.count >= 3)
    }

    @Test(arguments: ["stream/progressive.jpg", "stream/adam7.png"])
    func scaledIncrementalDecodeMatchesReference(name: String) throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 80, height: 80))
        let data = try Reference.data(name)
        let (partials, final) = try Self.stream(data, chunk: 7, options: options)
        #expect(final.size == PixelSize(width: 80, height: 50))
        #expect(partials.allSatisfy { $0.size == PixelSize(width: 80, height: 50) })
        #expect(final.pixels == (try ImageCoders.decode(data, options: options)).pixels)
        let mad = Reference.meanAbsoluteDifference(final.pixels, try Reference.pixels(name, size: final.size))
        print("MAD \(name) incremental @80×50: \(String(format: "%.3f", mad))")
        #expect(mad <= 3.0)
    }

    @Test func truncatedStreamGivesAPartialImageThenAnError() throws {
        let decoder = ImageCoders.makeIncrementalDecoder()
        decoder.append(try Reference.data("bad/truncated-progressive.jpg"))
        #expect(decoder.partialImage() != nil)
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try decoder.finish() }
        let png = ImageCoders.makeIncrementalDecoder()
        png.append(try Reference.data("bad/truncated.png"))
        #expect(png.partialImage() != nil)
        #expect(throws: DecodeError.truncated(format: "PNG")) { try png.finish() }
    }

    @Test func otherFormatsDecodeAtFinish() throws {
        let decoder = ImageCoders.makeIncrementalDecoder()
        let data = try Reference.data("gif/anim.gif")
        for i in 0..<data.count { decoder.append(data.subdata(in: i..<i + 1)) }
        #expect(decoder.partialImage() == nil)
        #expect(try decoder.finish().frames.count == 5)
        #expect(throws: DecodeError.empty) { try ImageCoders.makeIncrementalDecoder().finish() }
        let html = ImageCoders.makeIncrementalDecoder()
        html.append(try Reference.data("bad/page.html"))
        #expect(throws: DecodeError.notAnImage(kind: "text/html")) { try html.finish() }
    }
}
