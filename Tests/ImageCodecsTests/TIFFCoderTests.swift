import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

@Suite struct TIFFCoderTests {
    /// Lossless 8-bit variants equal ImageMagick's decode to the pixel.
    @Test(arguments: ["rgb-lzw", "rgb-deflate-tiles", "rgb-planar", "gray"])
    func losslessMatchesImageMagickExactly(name: String) throws {
        let (image, psnr) = try Reference.psnr("tiff/\(name).tif")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(image.sourceSize == image.size)
        #expect(psnr == .infinity)
    }

    /// Alpha (associated or not: libtiff hands both over premultiplied, made straight here), 16-bit
    /// samples and a palette's 16-bit colours (libtiff keeps the high byte, ImageMagick rounds) and
    /// JPEG-in-TIFF within 40 dB of ImageMagick.
    @Test(arguments: ["rgba-unassociated", "rgba-associated", "rgb16", "palette", "jpeg"])
    func variantsMatchImageMagick(name: String) throws {
        let (image, psnr) = try Reference.psnr("tiff/\(name).tif")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(psnr >= 40)
    }

    @Test func unassociatedAlphaStaysStraight() throws {
        let image = try ImageCoders.decode(try Reference.data("tiff/rgba-unassociated.tif"))
        let reference = try Reference.pixels("tiff/rgba-unassociated.tif")
        // The alpha ramp: half-transparent pixels keep their colour within 2 levels.
        var worst = 0
        for i in stride(from: 0, to: reference.count, by: 4) where reference[i + 3] >= 64 {
            for c in 0..<3 { worst = max(worst, abs(Int(image.pixels[i + c]) - Int(reference[i + c]))) }
        }
        #expect(worst <= 2)
        #expect(image.pixels[3] == 0, "the transparent corner")
    }

    @Test func aCellSizedDecodeIsScaled() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 38, height: 38))
        let (image, psnr) = try Reference.psnr("tiff/rgb-lzw.tif", options: options, size: PixelSize(width: 38, height: 22))
        #expect(image.size == PixelSize(width: 38, height: 22))
        #expect(image.sourceSize == PixelSize(width: 77, height: 45))
        #expect(psnr >= 30)
    }

    /// Orientation 6 (RightTop): stored 48×32, shown 32×48, as ImageMagick's -auto-orient.
    @Test func orientationSixIsApplied() throws {
        let (image, psnr) = try Reference.psnr("tiff/orient-6.tif")
        #expect(image.size == PixelSize(width: 32, height: 48))
        #expect(image.sourceSize == PixelSize(width: 32, height: 48))
        #expect(psnr == .infinity)
        let cell = try ImageCoders.decode(try Reference.data("tiff/orient-6.tif"), options: DecodeOptions(targetSize: PixelSize(width: 16, height: 16)))
        #expect(cell.size == PixelSize(width: 11, height: 16))
    }

    @Test func libtiffVersionIsReported() {
        let version = CodecLibraries.versions.first { $0.name == "libtiff" }?.version
        #expect(version?.hasPrefix("4.") == true, "\(String(describing: version))")
    }

    /// A minimal little-endian TIFF: one IFD of (tag, type, value) SHORT/LONG entries.
    static func tiff(_ entries: [(UInt16, UInt16, UInt32)], pixels: [UInt8] = []) -> Data {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func le16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        le16(UInt16(entries.count))
        for (tag, type, value) in entries.sorted(by: { $0.0 < $1.0 }) {
            le16(tag); le16(type); le32(1)
            if type == 3 { le16(UInt16(value)); le16(0) } else { le32(value) }
        }
        le32(0)
        return Data(bytes + pixels)
    }

    static func rgbHeader(width: UInt32, height: UInt32, extra: [(UInt16, UInt16, UInt32)] = []) -> [(UInt16, UInt16, UInt32)] {
        [(256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 200), (277, 3, 1),
         (278, 4, height), (279, 4, UInt32(min(UInt64(width) * UInt64(height), UInt64(UInt32.max))))] + extra
    }

    /// A 100000×100000 header in a file of 122 bytes: `.tooLarge` before anything is reserved.
    @Test func aDecompressionBombIsTooLargeWithoutAllocating() throws {
        let memory = DecodeMemory(limit: 64 << 20)
        let data = Self.tiff(Self.rgbHeader(width: 100_000, height: 100_000))
        #expect(throws: DecodeError.tooLarge(width: 100_000, height: 100_000)) {
            try ImageCoders.decode(data, options: DecodeOptions(memory: memory))
        }
        #expect(memory.peak == 0)
        // The same header decodes when it is small (the bomb is refused for its size alone).
        let small = Self.tiff(Self.rgbHeader(width: 10, height: 10), pixels: [UInt8](repeating: 0, count: 200 - 122 + 100))
        #expect(try ImageCoders.decode(small).size == PixelSize(width: 10, height: 10))
    }

    /// A 16×16 image in 65536×65536 tiles: libtiff would allocate 4 GB for one tile.
    @Test func aHugeTileIsRefusedBeforeLibtiffAllocatesIt() throws {
        let entries = Self.rgbHeader(width: 16, height: 16).filter { ![273, 278, 279].contains($0.0) }
            + [(322, 4, 65536), (323, 4, 65536), (324, 4, 200), (325, 4, 100)]
        do {
            _ = try ImageCoders.decode(Self.tiff(entries))
            Issue.record("decoded")
        } catch let DecodeError.corrupt(format, reason) {
            #expect(format == "TIFF")
            #expect(reason.contains("cap") || reason.contains("memory"), "\(reason)")
        }
    }

    @Test func badFilesGiveTypedErrors() throws {
        let data = try Reference.data("tiff/rgb-lzw.tif")
        #expect(throws: DecodeError.self) { try ImageCoders.decode(data.prefix(data.count / 2)) }
        #expect(throws: DecodeError.self) { try ImageCoders.decode(data.prefix(12)) }
        var generator = SystemRandomNumberGenerator()
        for length in [0, 8, 100, 3000] {
            let garbage = Data([0x49, 0x49, 0x2A, 0x00] + (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            #expect(throws: DecodeError.self) { try ImageCoders.decode(garbage) }
        }
    }

    /// libtiff's errors and warnings (an unknown tag, a strip past the end, a damaged file) reach
    /// the caller as text and never standard error.
    @Test func libtiffNeverPrints() throws {
        let data = try Reference.data("tiff/rgb-lzw.tif")
        let inputs = [
            Self.tiff(Self.rgbHeader(width: 10, height: 10, extra: [(65000, 3, 7)]), pixels: [UInt8](repeating: 0, count: 100)),
            data.prefix(data.count / 2), data.prefix(200), Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0, 0]),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tiff-stderr-\(UUID().uuidString)")
        let sink = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(sink >= 0)
        defer { unlink(file.path) }
        fflush(nil)
        let saved = dup(2)
        dup2(sink, 2)
        var errors: [String] = []
        for input in inputs {
            do { _ = try ImageCoders.decode(input) } catch { errors.append("\(error)") }
        }
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(sink)
        let printed = try String(contentsOf: file, encoding: .utf8)
        #expect(printed.isEmpty, "\(printed)")
        #expect(errors.count == 4, "\(errors)")
    }

    @Test func incrementalDecodeEqualsOneShot() throws {
        let data = try Reference.data("tiff/rgba-unassociated.tif")
        let options = DecodeOptions(targetSize: PixelSize(width: 40, height: 40))
        let decoder = ImageCoders.makeIncrementalDecoder(options: options)
        for start in stride(from: 0, to: data.count, by: 1000) { decoder.append(data.subdata(in: start..<min(data.count, start + 1000))) }
        let streamed = try decoder.finish()
        let oneShot = try ImageCoders.decode(data, options: options)
        #expect(streamed.pixels == oneShot.pixels && streamed.size == oneShot.size)
        #expect(streamed.sourceFormat == .tiff || streamed.sourceFormat == nil)
    }
}
