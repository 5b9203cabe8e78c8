import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

@Suite struct ICODecoderTests {
    /// ImageMagick's icon of 48, 32 and 16 pixels (32-bit DIBs with AND masks): the largest is
    /// decoded, equal to ImageMagick's decode of that entry.
    @Test func theLargestEntryIsDecoded() throws {
        let (image, psnr) = try Reference.psnr("ico/multi.ico")
        #expect(image.size == PixelSize(width: 48, height: 48))
        #expect(image.sourceSize == image.size)
        #expect(psnr == .infinity)
    }

    /// The largest entry, scaled, whatever the target (the source size stays that of one entry).
    @Test func aCellSizedDecodeScalesTheLargestEntry() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 20, height: 20))
        let (image, psnr) = try Reference.psnr("ico/multi.ico", options: options, size: PixelSize(width: 20, height: 20))
        #expect(image.size == PixelSize(width: 20, height: 20))
        #expect(image.sourceSize == PixelSize(width: 48, height: 48))
        #expect(psnr >= 30)
    }

    /// A PNG entry (Vista icons): decoded by libpng, equal to the PNG's own reference.
    @Test func aPNGEntryIsDecodedAsPNG() throws {
        let (image, psnr) = try Reference.psnr("ico/png.ico")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(psnr == .infinity)
    }

    /// An 8-bit palette DIB whose AND mask gives the transparency.
    @Test func anANDMaskMakesPixelsTransparent() throws {
        let (image, psnr) = try Reference.psnr("ico/pal8-mask.ico")
        #expect(image.size == PixelSize(width: 24, height: 20))
        #expect(psnr == .infinity)
        #expect(image.pixel(x: 0, y: 0).a == 0 && image.pixel(x: 23, y: 19).a == 255)
    }

    /// An icon directory of one entry.
    static func ico(width: UInt8, height: UInt8, offset: UInt32? = nil, entry: [UInt8]) -> Data {
        var bytes: [UInt8] = [0, 0, 1, 0, 1, 0, width, height, 0, 0, 1, 0, 32, 0]
        func le32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        le32(UInt32(entry.count)); le32(offset ?? 22)
        return Data(bytes + entry)
    }

    @Test func badIconsGiveTypedErrors() throws {
        let dib = [UInt8](try Reference.data("ico/pal8-mask.ico").dropFirst(22))
        #expect(try ImageCoders.decode(Self.ico(width: 24, height: 20, entry: dib)).size == PixelSize(width: 24, height: 20))
        // An entry reaching past the end of the file is no entry.
        #expect(throws: DecodeError.truncated(format: "ICO")) { try ImageCoders.decode(Self.ico(width: 24, height: 20, offset: 40, entry: dib)) }
        #expect(throws: DecodeError.truncated(format: "ICO")) { try ImageCoders.decode(Self.ico(width: 24, height: 20, entry: dib).dropLast(10)) }
        // No entries.
        #expect(throws: DecodeError.corrupt(format: "ICO", reason: "no images")) {
            try ICODecoder.decode(Data([0, 0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 30)), options: DecodeOptions())
        }
        // A DIB announcing 100000×100000 (its height doubled): too large, nothing reserved.
        var bomb = dib
        for (i, v) in [(4, UInt32(100_000)), (8, UInt32(200_000))] {
            for k in 0..<4 { bomb[i + k] = UInt8((v >> UInt32(8 * k)) & 0xFF) }
        }
        let memory = DecodeMemory(limit: 64 << 20)
        #expect(throws: DecodeError.tooLarge(width: 100_000, height: 100_000)) {
            try ImageCoders.decode(Self.ico(width: 0, height: 0, entry: bomb), options: DecodeOptions(memory: memory))
        }
        #expect(memory.peak == 0)
        // A damaged PNG entry is the icon's error.
        var png = [UInt8](try Reference.data("png/rgba.png"))
        png[40] ^= 0xFF
        #expect(throws: DecodeError.self) { try ImageCoders.decode(Self.ico(width: 77, height: 45, entry: png)) }
    }

    /// Sniffed from the 16 bytes an incremental decode waits for.
    @Test func incrementalDecodeEqualsOneShot() throws {
        let data = try Reference.data("ico/multi.ico")
        #expect(ImageFormat.sniff(data.prefix(16)) == .ico)
        let decoder = ImageCoders.makeIncrementalDecoder()
        for start in stride(from: 0, to: data.count, by: 5) { decoder.append(data.subdata(in: start..<min(data.count, start + 5))) }
        #expect(try decoder.finish().pixels == (try ImageCoders.decode(data)).pixels)
    }
}
