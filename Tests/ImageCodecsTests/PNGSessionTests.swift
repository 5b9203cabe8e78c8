import Foundation
import Testing
@testable import ImageCodecs

@Suite struct PNGSessionTests {
    @Test(arguments: [
        ("png/rgb.png", 0.0), ("png/rgba.png", 0.0), ("png/palette.png", 0.0), ("png/palette-trns.png", 0.0),
        // gray and gray-alpha are 16-bit files: libpng's 16→8 rounding differs from ImageMagick's by ≤ 1
        ("png/gray.png", 0.5), ("png/gray-2bit.png", 0.0), ("png/gray-alpha.png", 0.5),
        ("png/rgb16.png", 0.5), ("png/rgba16.png", 0.5), ("png/adam7.png", 0.0),
    ])
    func matchesImageMagick(name: String, bound: Double) throws {
        let (image, mad) = try Reference.difference(name)
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(mad <= bound)
    }

    @Test func keepsAlphaStraight() throws {
        let image = try ImageCoders.decode(try Reference.data("png/rgba.png"))
        #expect(image.pixel(x: 2, y: 2).a == 0)          // the transparent corner
        #expect(image.pixel(x: 1, y: 40).a < 10)          // the ramp's transparent end
        #expect(image.pixel(x: 76, y: 40).a > 245)        // and its opaque end
        #expect((100...160).contains(image.pixel(x: 38, y: 40).a))
    }

    @Test func scaledDecodeAveragesWithAlphaWeights() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 30, height: 30))
        let (image, mad) = try Reference.difference("png/rgba.png", options: options, size: PixelSize(width: 30, height: 18))
        #expect(image.size == PixelSize(width: 30, height: 18))
        #expect(mad <= 2.0)
    }

    @Test func hugeImageIsRejectedFromTheHeaderQuickly() throws {
        let data = try Reference.data("png/huge-30000.png")
        let start = ContinuousClock.now
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) { try ImageCoders.decode(data) }
        #expect(ContinuousClock.now - start < .milliseconds(200))
        // Incrementally too, from the first chunks.
        let decoder = ImageCoders.makeIncrementalDecoder()
        decoder.append(data.prefix(64))
        #expect(decoder.partialImage() == nil)
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) { try decoder.finish() }
    }

    @Test func truncatedAndCorruptDataAreErrors() throws {
        #expect(throws: DecodeError.truncated(format: "PNG")) { try ImageCoders.decode(try Reference.data("bad/truncated.png")) }
        do {
            _ = try ImageCoders.decode(try Reference.data("bad/crc.png"))
            Issue.record("a PNG with a bad CRC decoded")
        } catch let DecodeError.corrupt(format, reason) {
            #expect(format == "PNG")
            #expect(reason.contains("CRC"))
        }
    }

    @Test func adam7PreviewReplicatesBlocks() {
        // 16×8, only the pass-1 pixels (multiples of 8) set.
        var pixels = [UInt8](repeating: 0, count: 16 * 8 * 4)
        pixels[0..<4] = [10, 20, 30, 255]
        pixels[32..<36] = [40, 50, 60, 255]
        let preview = pixels.withUnsafeBufferPointer {
            PNGSession.adam7Preview($0.baseAddress!, width: 16, height: 8, passes: 1)
        }
        #expect(Array(preview.pixels[(7 * 16 + 7) * 4..<(7 * 16 + 7) * 4 + 4]) == [10, 20, 30, 255])
        #expect(Array(preview.pixels[(5 * 16 + 12) * 4..<(5 * 16 + 12) * 4 + 4]) == [40, 50, 60, 255])
    }
}
