import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

@Suite struct GIFDecoderTests {
    @Test(arguments: ["gif/still.gif", "gif/interlaced.gif"])
    func stillMatchesImageMagick(name: String) throws {
        let (image, mad) = try Reference.difference(name)
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(!image.isAnimated)
        #expect(mad <= 0.0)
    }

    /// Five frames: full blue, then sub-rectangles with dispose background / previous / none.
    @Test func animationIsCompositedWithEveryDisposalMode() throws {
        let (image, mad) = try Reference.difference("gif/anim.gif")
        #expect(image.frames.count == 5)
        #expect(image.loopCount == 3)
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.1, 0.1, 0.25])
        #expect(image.cost == 40 * 30 * 4 * 6)
        #expect(mad <= 0.0)
    }

    @Test func firstFrameOnlyAndScaledAnimation() throws {
        let data = try Reference.data("gif/anim.gif")
        let first = try ImageCoders.decode(data, options: DecodeOptions(firstFrameOnly: true))
        #expect(first.frames.isEmpty)
        #expect(first.pixel(x: 20, y: 20) == (0, 0, 255, 255))
        let small = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 20, height: 20)))
        #expect(small.size == PixelSize(width: 20, height: 15))
        #expect(small.frames.count == 5)
        #expect(small.frames.allSatisfy { $0.pixels.count == 20 * 15 * 4 })
    }

    @Test func truncatedGIFIsAnError() throws {
        #expect(throws: DecodeError.self) { try ImageCoders.decode(try Reference.data("bad/truncated.gif")) }
        #expect(throws: DecodeError.self) { try ImageCoders.decode(Data("GIF89a".utf8)) }
    }
}

/// An interlaced GIF whose target is at most 1/8 of its height is final once the first pass of its
/// first frame is in (every 8th row); a local file is read only that far (`ImageCoders.decodeFile`).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/convert"), "needs ImageMagick"))
struct InterlacedGIFFirstPassTests {
    /// 800×1600, bands of 8 rows, 256 colours (no dithering): the first pass is exactly the image.
    static func interlacedGIF(interlaced: Bool = true) throws -> Data {
        let folder = try Fixtures.temporaryDirectory("gif-interlaced")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (w, h) = (800, 1600)
        var ppm = Data("P6\n\(w) \(h)\n255\n".utf8)
        for y in 0..<h {
            for x in 0..<w { ppm.append(contentsOf: [UInt8(x / 50 * 16), UInt8(y / 8 % 16 * 16), UInt8((x / 50 + y / 8) % 2 * 200)]) }
        }
        let input = folder.appendingPathComponent("in.ppm"), output = folder.appendingPathComponent("out.gif")
        try ppm.write(to: input)
        let result = try ChildProcess.run("/usr/bin/convert", [input.path, "+dither", "-interlace", interlaced ? "GIF" : "none", output.path], timeout: 60)
        guard result.status == 0 else { throw ChildProcess.SpawnError(description: "convert: \(result.err)") }
        return try Data(contentsOf: output)
    }

    static func read(_ data: Data, target: PixelSize) throws -> (image: Image, bytesRead: Int) {
        let folder = try Fixtures.temporaryDirectory("gif-read")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("i.gif")
        try data.write(to: file)
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        return try ImageCoders.decodeFile(handle, size: data.count, options: DecodeOptions(targetSize: target))
    }

    @Test func aCellAtMostAnEighthOfTheHeightReadsOnlyTheFirstPass() throws {
        let gif = try Self.interlacedGIF()
        let cell = PixelSize(width: 100, height: 200)
        let early = try Self.read(gif, target: cell)
        print("interlaced GIF \(gif.count) B: a 100×200 cell read \(early.bytesRead) B")
        #expect(early.bytesRead < gif.count / 2, "read \(early.bytesRead) of \(gif.count)")
        let whole = try ImageCoders.decode(gif, options: DecodeOptions(targetSize: cell))
        #expect(early.image.size == cell && early.image.pixels == whole.pixels)
        #expect(early.image.sourceSize == PixelSize(width: 800, height: 1600))
        #expect(early.image.earlyTier == .firstPass && whole.earlyTier == nil)
        // Taller than 1/8: to the end. Not interlaced: to the end.
        #expect(try Self.read(gif, target: PixelSize(width: 200, height: 400)).bytesRead == gif.count)
        let plain = try Self.interlacedGIF(interlaced: false)
        #expect(try Self.read(plain, target: cell).bytesRead == plain.count)
    }
}
