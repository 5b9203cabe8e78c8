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
