import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

@Suite struct BMPDecoderTests {
    /// Every header, bit depth, compression and row order ImageMagick writes (or reads, for the
    /// hand-made ones) decodes to its pixels exactly.
    @Test(arguments: ["rgb24", "pal8", "pal4", "pal1", "rle8", "core24", "topdown", "rgba32-v5"])
    func matchesImageMagickExactly(name: String) throws {
        let (image, psnr) = try Reference.psnr("bmp/\(name).bmp")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(image.sourceSize == image.size)
        #expect(psnr == .infinity)
    }

    /// 16-bit bit fields (masks after an INFO header, BI_RGB 5-5-5, a V5 header with 1-bit alpha):
    /// ImageMagick widens 5 and 6 bits to 8 its own way.
    @Test(arguments: ["rgb565", "rgb555", "argb1555"])
    func sixteenBitMatchesImageMagick(name: String) throws {
        let (image, psnr) = try Reference.psnr("bmp/\(name).bmp")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(psnr >= 40)
    }

    /// RLE4 with encoded and absolute runs, end-of-line codes and a delta: equal to ImageMagick but
    /// for the 3 pixels the delta skips, transparent here (as browsers show them; ImageMagick fills
    /// them with palette entry 0).
    @Test func rle4MatchesImageMagickButForSkippedPixels() throws {
        let image = try ImageCoders.decode(try Reference.data("bmp/rle4.bmp"))
        var reference = try Reference.pixels("bmp/rle4.bmp")
        // The delta on the file's second row (display row 43) skips its first 3 pixels.
        for x in 0..<3 {
            #expect(image.pixel(x: x, y: 43).a == 0)
            for c in 0..<4 { reference[(43 * 77 + x) * 4 + c] = image.pixels[(43 * 77 + x) * 4 + c] }
        }
        #expect(image.pixel(x: 3, y: 43).a == 255)
        #expect(Reference.psnr(image.pixels, reference) == .infinity)
    }

    /// A 32-bit alpha mask whose every alpha is 0: opaque, as browsers show it.
    @Test func allZeroAlphaIsOpaque() throws {
        let image = try ImageCoders.decode(try Reference.data("bmp/alpha-all-zero.bmp"))
        #expect(stride(from: 3, to: image.pixels.count, by: 4).allSatisfy { image.pixels[$0] == 255 })
        let withAlpha = try ImageCoders.decode(try Reference.data("bmp/rgba32-v5.bmp"))
        #expect(withAlpha.pixel(x: 0, y: 0).a == 0, "the source's transparent corner")
    }

    @Test func aCellSizedDecodeIsScaled() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 38, height: 38))
        let (image, psnr) = try Reference.psnr("bmp/rgb24.bmp", options: options, size: PixelSize(width: 38, height: 22))
        #expect(image.size == PixelSize(width: 38, height: 22))
        #expect(image.sourceSize == PixelSize(width: 77, height: 45))
        #expect(psnr >= 30)
    }

    /// An INFO-header BMP: file header, 40-byte header, then `tail` (palette and pixels).
    static func bmp(width: Int32, height: Int32, bpp: UInt16, compression: UInt32 = 0, headerSize: UInt32 = 40, tail: [UInt8] = []) -> Data {
        var bytes: [UInt8] = Array("BM".utf8)
        func le16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        le32(UInt32(14 + 40 + tail.count)); le32(0); le32(14 + 40)
        le32(headerSize); le32(UInt32(bitPattern: width)); le32(UInt32(bitPattern: height)); le16(1); le16(bpp); le32(compression)
        le32(0); le32(2835); le32(2835); le32(0); le32(0)
        return Data(bytes + tail)
    }

    /// A 100000×100000 header in 54 bytes: `.tooLarge` before anything is reserved or allocated.
    @Test func aBombIsTooLargeWithoutAllocating() throws {
        let memory = DecodeMemory(limit: 64 << 20)
        #expect(throws: DecodeError.tooLarge(width: 100_000, height: 100_000)) {
            try ImageCoders.decode(Self.bmp(width: 100_000, height: 100_000, bpp: 24), options: DecodeOptions(memory: memory))
        }
        #expect(throws: DecodeError.tooLarge(width: 100_000, height: 100_000)) {
            try ImageCoders.decode(Self.bmp(width: 100_000, height: -100_000, bpp: 8, compression: 1), options: DecodeOptions(memory: memory))
        }
        #expect(memory.peak == 0)
        // Within the cap but with too few bytes for its rows: truncated, still before allocating.
        #expect(throws: DecodeError.truncated(format: "BMP")) {
            try ImageCoders.decode(Self.bmp(width: 5000, height: 5000, bpp: 24), options: DecodeOptions(memory: memory))
        }
        #expect(memory.peak == 0)
    }

    /// Runs, deltas and absolute runs past an 8×4 canvas, no end-of-bitmap: the canvas is filled
    /// where they land inside and nowhere else.
    @Test func rlePastTheCanvasIsBounded() throws {
        let image = try ImageCoders.decode(try Reference.data("bad/bmp-rle-past-canvas.bmp"))
        #expect(image.size == PixelSize(width: 8, height: 4))
        for x in 0..<8 {
            #expect(image.pixel(x: x, y: 3) == (255, 0, 0, 255), "bottom row: the run of 255, cut at the edge")
            #expect(image.pixel(x: x, y: 2) == (0, 0, 255, 255), "second row: the absolute run of 12, cut")
            #expect(image.pixel(x: x, y: 1).a == 0 && image.pixel(x: x, y: 0).a == 0, "a delta past the last row ends it")
        }
    }

    @Test func badFilesGiveTypedErrors() throws {
        let rgb = try Reference.data("bmp/rgb24.bmp")
        #expect(throws: DecodeError.truncated(format: "BMP")) { try ImageCoders.decode(rgb.prefix(rgb.count - 100)) }
        #expect(throws: DecodeError.truncated(format: "BMP")) { try ImageCoders.decode(rgb.prefix(30)) }
        #expect(throws: DecodeError.unsupportedFormat(name: "BMP with JPEG inside")) {
            try ImageCoders.decode(Self.bmp(width: 4, height: 4, bpp: 24, compression: 4, tail: [UInt8](repeating: 0, count: 64)))
        }
        #expect(throws: DecodeError.unsupportedFormat(name: "BMP with a 64-byte header")) {
            try ImageCoders.decode(Self.bmp(width: 4, height: 4, bpp: 24, headerSize: 64, tail: [UInt8](repeating: 0, count: 64)))
        }
        #expect(throws: DecodeError.corrupt(format: "BMP", reason: "top-down or icon RLE")) {
            try ImageCoders.decode(Self.bmp(width: 4, height: -4, bpp: 8, compression: 1, tail: [UInt8](repeating: 0, count: 64)))
        }
        // Bit fields with a hole in the red mask.
        let masks: [UInt8] = [0x0F, 0xF0, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0, 0, 0]
        #expect(throws: DecodeError.corrupt(format: "BMP", reason: "a mask with holes")) {
            try ImageCoders.decode(Self.bmp(width: 2, height: 2, bpp: 32, compression: 3, tail: masks + [UInt8](repeating: 0, count: 16)))
        }
        var generator = SystemRandomNumberGenerator()
        for length in [0, 10, 100, 3000] {
            for header: UInt32 in [12, 40, 108, 124] {
                let tail = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let data = Self.bmp(width: 7, height: 5, bpp: [1, 4, 8, 16, 24, 32].randomElement(using: &generator)!,
                                    compression: UInt32.random(in: 0...3, using: &generator), headerSize: header, tail: tail)
                do { _ = try ImageCoders.decode(data) } catch is DecodeError {} catch { Issue.record("\(error)") }
            }
        }
    }

    @Test func sniffingNeedsADIBHeaderSize() throws {
        #expect(ImageFormat.sniff(try Reference.data("bmp/core24.bmp").prefix(16)) == .bmp)
        #expect(ImageFormat.sniff(try Reference.data("bmp/rgba32-v5.bmp").prefix(16)) == .bmp)
        #expect(ImageFormat.sniff(Data("BMW and Audi are cars, a text.".utf8)) == .text)
    }

    @Test func incrementalDecodeEqualsOneShot() throws {
        let data = try Reference.data("bmp/rle8.bmp")
        let decoder = ImageCoders.makeIncrementalDecoder()
        for start in stride(from: 0, to: data.count, by: 7) { decoder.append(data.subdata(in: start..<min(data.count, start + 7))) }
        #expect(try decoder.finish().pixels == (try ImageCoders.decode(data)).pixels)
    }
}
