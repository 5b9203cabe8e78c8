import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// HEIC through libheif, against heif-convert's own decodes (Tests/Fixtures/codecs/heic, scripts/make-fixtures).
@Suite struct HEICCoderTests {
    /// A 3 KB file whose primary item is an overlay with a garbage canvas made libheif 1.15 allocate
    /// 639 MB (fuzz; 1.9 GB peak, 6.4 s): overlays are refused before libheif sees them.
    @Test func anOverlayIsRefusedBeforeLibheifAllocatesItsCanvas() throws {
        let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Tests/Fuzz/regressions/heic/overlay-canvas-allocated-without-the-size-limit.heic"))
        #expect(data.count < 4096)
        #expect(throws: DecodeError.unsupportedFormat(name: "HEIF overlay")) { try ImageCoders.decode(data) }
    }

    /// A 3 KB file whose primary image (77×45) has a grid for its alpha, the grid's descriptor
    /// announcing 11520×19712, made libheif 1.15 allocate 454 MB (fuzz, under the fuzz targets'
    /// 512×512 cap): every grid the primary decodes is checked before libheif sees the file.
    @Test func aGridAlphasCanvasIsTooLargeBeforeLibheifAllocatesIt() throws {
        let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Tests/Fuzz/regressions/heic/alpha-grid-canvas-allocated-without-the-size-limit.heic"))
        #expect(data.count < 4096)
        #expect(throws: DecodeError.tooLarge(width: 11520, height: 19712)) {
            try ImageCoders.decode(data, options: DecodeOptions(pixelLimit: 512 * 512))
        }
    }

    /// A 2×2 grid of 64×64 tiles on a 120×100 canvas (the right and bottom tiles cut; iloc version
    /// 1, the tiles by file offset after a base offset, the descriptor in idat): as heif-convert.
    @Test func aGridDecodesAsHeifConvertDoes() throws {
        let (image, psnr) = try Reference.psnr("heic/grid.heic")
        #expect(image.size == PixelSize(width: 120, height: 100))
        #expect(psnr >= 40)
        #expect(throws: DecodeError.tooLarge(width: 120, height: 100)) {
            try ImageCoders.decode(try Reference.data("heic/grid.heic"), options: DecodeOptions(pixelLimit: 120 * 100 - 1))
        }
    }

    /// The same grid with its descriptor announcing 60000×50000 (its ispe still 120×100): refused from
    /// the descriptor, whatever the ispe, before the memory budget or libheif is asked for anything.
    @Test func aGridCanvasOverTheCapIsTooLargeWhateverItsIspe() throws {
        let data = try Reference.data("heic/grid-canvas-bomb.heic")
        let memory = DecodeMemory(limit: 1 << 20)
        for limit in [DecodeOptions.defaultPixelLimit, 120 * 100] {
            #expect(throws: DecodeError.tooLarge(width: 60000, height: 50000)) {
                try ImageCoders.decode(data, options: DecodeOptions(pixelLimit: limit, memory: memory))
            }
        }
    }

    /// Descriptor bytes patched into the grid fixture (its idat holds the 8 bytes of the descriptor).
    static func grid(descriptor: [UInt8]) throws -> Data {
        var data = try Reference.data("heic/grid.heic")
        let idat = try #require(data.range(of: Data("idat".utf8)))
        data.replaceSubrange(idat.upperBound..<(idat.upperBound + descriptor.count), with: descriptor)
        return data
    }

    @Test func aGridOfTooManyTilesOrNoPixelsIsRefused() throws {
        // 256×256 tiles announced on the 120×100 canvas.
        #expect {
            try ImageCoders.decode(try Self.grid(descriptor: [0, 0, 255, 255, 0, 120, 0, 100]))
        } throws: { error in
            guard case DecodeError.corrupt("HEIC", let reason) = error else { return false }
            return reason.contains("256×256 tiles")
        }
        #expect(throws: DecodeError.corrupt(format: "HEIC", reason: "a grid of 0×100 pixels")) {
            try ImageCoders.decode(try Self.grid(descriptor: [0, 0, 1, 1, 0, 0, 0, 100]))
        }
        // Bit 0 of the flags says 32-bit sizes: 12 bytes, of which idat holds 8.
        #expect(throws: DecodeError.corrupt(format: "HEIC", reason: "a grid without its descriptor")) {
            try ImageCoders.decode(try Self.grid(descriptor: [0, 1, 1, 1, 0, 0, 0, 120]))
        }
    }

    /// Each tile is a decode of its own, and a file can name one tile many times: one image per
    /// 64×64 pixels of the cap, at least 256.
    @Test func aPictureOfMoreImagesThanTheBoundIsRefused() throws {
        let bound = HEICDecoder.maxDecodedImages(pixelLimit: 512 * 512)
        #expect(bound == 256)
        #expect(HEICDecoder.maxDecodedImages(pixelLimit: DecodeOptions.defaultPixelLimit) == 24_414)
        func check(_ images: Int) throws {
            try [UInt8]().withUnsafeBytes { try HEICDecoder.check(HEIFDecodedItems(decodedImages: images), pixelLimit: 512 * 512, data: $0) }
        }
        try check(bound)
        #expect(throws: DecodeError.corrupt(format: "HEIC", reason: "over 256 images to decode")) { try check(bound + 1) }
    }

    @Test(arguments: ["heic/still.heic", "heic/alpha.heic"])
    func matchesHeifConvert(name: String) throws {
        let (image, psnr) = try Reference.psnr(name)
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(image.sourceFormat == .heic)
        #expect(psnr >= 40)
    }

    @Test func decodesToACellsSize() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 38, height: 38))
        let (image, psnr) = try Reference.psnr("heic/still.heic", options: options, size: PixelSize(width: 38, height: 22))
        #expect(image.size == PixelSize(width: 38, height: 22))
        #expect(image.sourceSize == PixelSize(width: 77, height: 45))
        #expect(psnr >= 40)
    }

    /// Sniffed as HEIC (major brand mif1), AV1 inside: libavif decodes it.
    @Test func anAV1HEIFGoesToTheAVIFDecoder() throws {
        let data = try Reference.data("heic/av1-mif1.heif")
        #expect(ImageFormat.sniff(data) == .heic)
        let (image, psnr) = try Reference.psnr("heic/av1-mif1.heif", reference: "avif/still.avif")
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(psnr >= 40)
    }

    @Test func hevcDecoderIsThere() {
        #expect(ImageCoderRegistry.coder(for: .heic) != nil)
        #expect(CodecLibraries.versions.contains { $0.name == "libheif" && $0.version.hasPrefix("1.") })
    }

    @Test func badFilesGiveTypedErrors() throws {
        #expect(throws: DecodeError.truncated(format: "HEIC")) { try ImageCoders.decode(try Reference.data("bad/truncated.heic")) }
        #expect {
            try ImageCoders.decode(try Reference.data("bad/garbage.heic"))
        } throws: { error in
            guard case DecodeError.corrupt(let format, let reason) = error else { return false }
            return format == "HEIC" && !reason.isEmpty && !reason.unicodeScalars.contains { $0.value < 0x20 || $0.value > 0x7E }
        }
    }

    /// 30000×30000 announced by a 2.8 KB file: refused from the header, before the memory budget
    /// (1 MB here) is asked for anything, with the default cap and a tiny one (which libheif's own
    /// per-side cap refuses first).
    @Test func aBombIsTooLargeBeforeAnythingIsAllocated() throws {
        let memory = DecodeMemory(limit: 1 << 20)
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) {
            try ImageCoders.decode(try Reference.data("heic/bomb.heic"), options: DecodeOptions(memory: memory))
        }
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) {
            try ImageCoders.decode(try Reference.data("heic/bomb.heic"), options: DecodeOptions(pixelLimit: 100, memory: memory))
        }
        #expect(throws: DecodeError.pixelLimitCheck) {
            try ImageCoders.decode(try Reference.data("heic/still.heic"), options: DecodeOptions(pixelLimit: 100, memory: memory))
        }
    }
}
