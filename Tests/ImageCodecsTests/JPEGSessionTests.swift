import Foundation
import Testing
@testable import ImageCodecs

@Suite struct JPEGSessionTests {
    static let small = PixelSize(width: 77, height: 45)

    @Test(arguments: [
        ("jpeg/baseline.jpg", 1.0), ("jpeg/progressive.jpg", 1.0), ("jpeg/gray.jpg", 1.0),
        ("jpeg/cmyk-adobe-im.jpg", 1.5),
    ])
    func matchesImageMagick(name: String, bound: Double) throws {
        let (image, mad) = try Reference.difference(name)
        #expect(image.size == Self.small)
        #expect(mad <= bound)
    }

    /// CMYK written by our own little libjpeg writer: plain (no Adobe marker), Adobe-inverted CMYK
    /// and Adobe YCCK; compared with the RGB they were made from (so only JPEG loss remains).
    @Test(arguments: ["jpeg/cmyk-plain.jpg", "jpeg/cmyk-adobe.jpg", "jpeg/cmyk-ycck.jpg"])
    func cmykVariantsMatchTheirSource(name: String) throws {
        let (image, mad) = try Reference.difference(name, reference: "jpeg/cmyk.source")
        #expect(image.size == Self.small)
        #expect(mad <= 3.0)
    }

    @Test(arguments: 1...8)
    func appliesExifOrientation(orientation: Int) throws {
        let (image, mad) = try Reference.difference("jpeg/orient-\(orientation).jpg")
        #expect(image.size == (orientation >= 5 ? PixelSize(width: 32, height: 48) : PixelSize(width: 48, height: 32)))
        #expect(image.sourceSize == image.size)
        #expect(mad <= 1.0)
    }

    @Test func scaledDecodeFitsTheBoxAndMatchesAnAreaAverage() throws {
        let box = DecodeOptions(targetSize: PixelSize(width: 40, height: 40))
        let (image, mad) = try Reference.difference("jpeg/baseline.jpg", options: box, size: PixelSize(width: 40, height: 23))
        #expect(image.size == PixelSize(width: 40, height: 23))
        #expect(image.sourceSize == Self.small)
        #expect(mad <= 3.0)
        let (progressive, pmad) = try Reference.difference(
            "jpeg/progressive.jpg", options: DecodeOptions(targetSize: PixelSize(width: 20, height: 20)), size: PixelSize(width: 20, height: 12))
        #expect(progressive.size == PixelSize(width: 20, height: 12))
        #expect(pmad <= 4.0)
    }

    @Test func scaledDecodeOfRotatedImageFitsTheDisplayBox() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 16, height: 16))
        let (image, mad) = try Reference.difference("jpeg/orient-6.jpg", options: options, size: PixelSize(width: 11, height: 16))
        #expect(image.size == PixelSize(width: 11, height: 16))
        #expect(image.sourceSize == PixelSize(width: 32, height: 48))
        #expect(mad <= 4.0)
    }

    @Test func truncatedAndCorruptDataAreErrors() throws {
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try ImageCoders.decode(try Reference.data("bad/truncated.jpg")) }
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try ImageCoders.decode(try Reference.data("bad/truncated-progressive.jpg")) }
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try ImageCoders.decode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16])) }
        do {
            _ = try ImageCoders.decode(try Reference.data("bad/zero-size.jpg"))
            Issue.record("a zero-size SOF decoded")
        } catch let DecodeError.corrupt(format, reason) {
            #expect(format == "JPEG")
            #expect(reason.contains("Empty JPEG image"))
        }
    }

    @Test func pixelCapIsCheckedFromTheHeader() throws {
        #expect(throws: DecodeError.tooLarge(width: 77, height: 45)) {
            try ImageCoders.decode(try Reference.data("jpeg/baseline.jpg"), options: DecodeOptions(pixelLimit: 3000))
        }
    }
}

@Suite struct JPEGSessionStreamingTests {
    /// Consumed input is dropped: the input buffer stays far smaller than the file.
    @Test(arguments: ["stream/baseline.jpg", "stream/progressive.jpg"])
    func inputBufferStaysBounded(name: String) throws {
        let data = try Reference.data(name)
        let session = try JPEGSession(options: DecodeOptions(), incremental: true)
        var maxCapacity = 0
        for offset in stride(from: 0, to: data.count, by: 7) {
            session.append(data.subdata(in: offset..<min(data.count, offset + 7)))
            maxCapacity = max(maxCapacity, session.inputCapacity)
        }
        _ = try session.finish()
        #expect(maxCapacity <= 8192, "input buffer grew to \(maxCapacity) for a \(data.count)-byte file")
    }

    @Test func pixelCapStopsAnIncrementalDecode() throws {
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(pixelLimit: 1000))
        decoder.append(try Reference.data("stream/progressive.jpg"))
        #expect(decoder.partialImage() == nil)
        #expect(throws: DecodeError.tooLarge(width: 480, height: 300)) { try decoder.finish() }
    }
}
