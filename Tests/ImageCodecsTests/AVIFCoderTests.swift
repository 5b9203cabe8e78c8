import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// AVIF through libavif, against avifdec's own decodes (Tests/Fixtures/codecs/avif, scripts/make-fixtures).
@Suite struct AVIFCoderTests {
    @Test(arguments: ["avif/still.avif", "avif/alpha.avif"])
    func matchesAvifdec(name: String) throws {
        let (image, psnr) = try Reference.psnr(name)
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(image.sourceFormat == .avif)
        #expect(psnr >= 40)
    }

    @Test func alphaIsStraightAndKept() throws {
        let image = try ImageCoders.decode(try Reference.data("avif/alpha.avif"))
        // The fixture's alpha ramps from 0 at the left edge to 255 at the right (straight: the colour
        // of a half-transparent pixel is not darkened).
        #expect(image.pixel(x: 0, y: 30).a < 8)
        #expect(image.pixel(x: 76, y: 30).a > 240)
        #expect((90...170).contains(image.pixel(x: 38, y: 30).a))
    }

    @Test func decodesToACellsSize() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 38, height: 38))
        let (image, psnr) = try Reference.psnr("avif/still.avif", options: options, size: PixelSize(width: 38, height: 22))
        #expect(image.size == PixelSize(width: 38, height: 22))
        #expect(image.sourceSize == PixelSize(width: 77, height: 45))
        #expect(psnr >= 40)
    }

    @Test func sequenceDecodesItsFramesWithTheirDurations() throws {
        let (image, psnr) = try Reference.psnr("avif/anim.avif")
        #expect(image.size == PixelSize(width: 40, height: 30))
        #expect(image.frames.map(\.duration).map { ($0 * 1000).rounded() } == [100, 100, 250, 250])
        #expect(image.loopCount == 0)
        #expect(psnr >= 40)
        let first = try ImageCoders.decode(try Reference.data("avif/anim.avif"), options: DecodeOptions(firstFrameOnly: true))
        #expect(first.frames.isEmpty && first.size == PixelSize(width: 40, height: 30))
        // Frames beyond the pixel budget (2 × 1200 pixels) are not held but streamed: all four play.
        let capped = try ImageCoders.decode(try Reference.data("avif/anim.avif"), options: DecodeOptions(pixelLimit: 2400))
        #expect(capped.isStreamed && capped.frameCount == 4)
        #expect(capped.frameDurations.map { ($0 * 1000).rounded() } == [100, 100, 250, 250])
        for i in 0..<4 { #expect(capped.frameImage(i).pixels == image.frames[i].pixels, "frame \(i)") }
        #expect(capped.frameImage(1).pixels == image.frames[1].pixels, "frame 1 again, after the last")
        let small = try ImageCoders.decode(try Reference.data("avif/anim.avif"), options: DecodeOptions(targetSize: PixelSize(width: 8, height: 8)))
        #expect(small.frames.count == 4 && small.size == PixelSize(width: 8, height: 6))
    }

    @Test func irotTurnsTheImage() throws {
        let (image, psnr) = try Reference.psnr("avif/irot.avif")
        #expect(image.size == PixelSize(width: 45, height: 77))
        #expect(image.sourceSize == PixelSize(width: 45, height: 77))
        #expect(psnr >= 40)
        let (cell, cellPSNR) = try Reference.psnr("avif/irot.avif", options: DecodeOptions(targetSize: PixelSize(width: 19, height: 19)), size: PixelSize(width: 11, height: 19))
        #expect(cell.size == PixelSize(width: 11, height: 19))
        #expect(cellPSNR >= 40)
    }

    @Test func irotThenImirIsATranspose() throws {
        let (image, psnr) = try Reference.psnr("avif/irot-imir.avif")
        #expect(image.size == PixelSize(width: 45, height: 77))
        #expect(psnr >= 40)
    }

    /// irot (anticlockwise quarter turns) then imir, as the EXIF orientation that does the same.
    @Test func irotAndImirMapToExifOrientations() {
        let cases: [(Int, Int?, ExifOrientation)] = [
            (0, nil, .up), (1, nil, .left), (2, nil, .down), (3, nil, .right),
            (0, 1, .upMirrored), (0, 0, .downMirrored), (2, 0, .upMirrored), (2, 1, .downMirrored),
            (1, 0, .leftMirrored), (3, 1, .leftMirrored), (1, 1, .rightMirrored), (3, 0, .rightMirrored),
        ]
        for (angle, mirror, expected) in cases {
            #expect(AVIFDecoder.orientation(quarterTurnsAnticlockwise: angle, mirror: mirror) == expected, "irot \(angle) imir \(String(describing: mirror))")
        }
    }

    /// dav1d prints "Unknown OBU type…" to stderr unless its logger is replaced: libavif leaves it.
    @Test func dav1dDoesNotPrint() {
        #expect(AVIFDecoder.dav1dIsQuiet)
    }

    @Test func badFilesGiveTypedErrors() throws {
        #expect(throws: DecodeError.truncated(format: "AVIF")) { try ImageCoders.decode(try Reference.data("bad/truncated.avif")) }
        #expect {
            try ImageCoders.decode(try Reference.data("bad/garbage.avif"))
        } throws: { error in
            guard case DecodeError.corrupt(let format, let reason) = error else { return false }
            return format == "AVIF" && !reason.isEmpty
        }
    }

    /// 30000×30000 announced by a 1.4 KB file: refused from the header, before the memory budget
    /// (1 MB here) is asked for anything.
    @Test func aBombIsTooLargeBeforeAnythingIsAllocated() throws {
        let memory = DecodeMemory(limit: 1 << 20)
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) {
            try ImageCoders.decode(try Reference.data("avif/bomb.avif"), options: DecodeOptions(memory: memory))
        }
        #expect(throws: DecodeError.tooLarge(width: 30000, height: 30000)) {
            try ImageCoders.decode(try Reference.data("avif/bomb.avif"), options: DecodeOptions(pixelLimit: 100, memory: memory))
        }
        #expect(throws: DecodeError.pixelLimitCheck) {
            try ImageCoders.decode(try Reference.data("avif/still.avif"), options: DecodeOptions(pixelLimit: 100, memory: memory))
        }
        #expect(throws: DecodeError.tooLarge(width: 40, height: 30)) {
            try ImageCoders.decode(try Reference.data("avif/anim.avif"), options: DecodeOptions(pixelLimit: 1000, memory: memory))
        }
    }

    @Test func registeredFirstWithItsLibraryVersion() throws {
        #expect(ImageCoderRegistry.coders.first?.format == .avif)
        #expect(ImageCoderRegistry.acceptHeader.hasPrefix("image/avif,"))
        #expect(ImageCoderRegistry.coder(for: .avif)?.capabilities == [.animation])
        let libavif = try #require(CodecLibraries.versions.first { $0.name == "libavif" })
        #expect(libavif.version.hasPrefix("0.") || libavif.version.hasPrefix("1."))
        #expect(libavif.version.contains("dav1d") || libavif.version.contains("aom"))
    }
}
