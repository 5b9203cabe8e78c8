import Foundation
import Testing
@testable import ImageCodecs

/// Small files that announce large canvases (issue 21: a 62-byte GIF took 426 MB, a 90-byte animated
/// WebP 1.2 GB): the bytes of pixels one decode holds stay within `DecodeOptions.outputByteLimit`.
@Suite struct OutputBudgetTests {
    /// A GIF of `width`×`height` whose `frames` frames are each one pixel at the top left.
    static func gif(width: Int, height: Int, frames: Int) -> Data {
        var bytes: [UInt8] = Array("GIF89a".utf8)
        bytes += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x80, 0, 0]
        bytes += [0, 0, 0, 0xFF, 0xFF, 0xFF]  // two colours
        for _ in 0..<frames {
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]  // a 1×1 frame at (0, 0)
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]     // LZW: clear, index 0, end
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    @Test func aTinyGIFWithAHugeCanvasIsRefusedBeforeItsCanvasExists() {
        let data = Self.gif(width: 10000, height: 10000, frames: 1)
        #expect(data.count < 64)
        #expect(throws: DecodeError.tooLarge(width: 10000, height: 10000)) {
            try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 100, height: 100)))
        }
    }

    /// 300 frames of 4 MB: more than the byte budget holds, so they are streamed, every one of them.
    @Test func gifFramesOverTheByteBudgetAreStreamed() throws {
        let image = try ImageCoders.decode(Self.gif(width: 1000, height: 1000, frames: 300))
        #expect(image.isStreamed && image.frames.isEmpty && image.frameCount == 300)
        #expect(image.cost <= DecodeOptions.defaultOutputByteLimit, "\(image.cost) bytes held")
    }

    @Test func aTinyAnimatedWebPWithAHugeCanvasIsRefused() throws {
        var data = try Reference.data("webp/anim.webp")
        // VP8X: canvas width − 1 and height − 1, 24 bits each, at offsets 24 and 27.
        for offset in [24, 27] { data.replaceSubrange(offset..<offset + 3, with: [0x0F, 0x27, 0x00]) }
        #expect(throws: DecodeError.tooLarge(width: 10000, height: 10000)) {
            try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 100, height: 100)))
        }
    }

    @Test func theBudgetCountsCanvasesAndFrames() {
        let overhead = OutputBudget.frameOverhead
        let budget = OutputBudget(limit: 40 + 3 * (20 + overhead), working: 40, framePixelBytes: 20)
        #expect(budget.allows(frames: 3))
        #expect(!budget.allows(frames: 4))
        #expect(!OutputBudget(limit: 100, working: 101, framePixelBytes: 0).allows(frames: 0))
        #expect(!OutputBudget(limit: 100, working: 0, framePixelBytes: .max).allows(frames: 2))
        #expect(!OutputBudget(limit: .max, working: 0, framePixelBytes: 4, maxFrames: 5).allows(frames: 6))
    }

    /// A 22 MB GIF of a million one-pixel frames kept every frame: 116 MB of arrays of 4 bytes.
    @Test func framesStopAtTheFrameCapAndTheirCostCountsTheirOverhead() throws {
        let data = Self.gif(width: 1, height: 1, frames: 500)
        let capped = try ImageCoders.decode(data, options: DecodeOptions(maxFrames: 120))
        #expect(capped.frames.count == 120)
        let tight = try ImageCoders.decode(data, options: DecodeOptions(outputByteLimit: 2 * 4 + 50 * (4 + OutputBudget.frameOverhead)))
        #expect(tight.isStreamed && tight.frameCount == 500, "over the byte budget: streamed")
        let held = try ImageCoders.decode(data, options: DecodeOptions(outputByteLimit: 2 * 4 + 500 * (4 + OutputBudget.frameOverhead)))
        #expect(held.frames.count == 500 && !held.isStreamed)
        #expect(try ImageCoders.decode(data).frames.count == 500)
    }

    /// A grid cell plays its thumbnail: a long animation decoded into a cell's box holds at most 16 MB
    /// of frames (twenty cells playing must not hold twenty full views' budgets), so it streams them;
    /// into a full view's box, or at full size, it holds them all.
    @Test func aSmallBoxHoldsSixteenMegabytesOfFramesAtMost() throws {
        let data = Self.gif(width: 240, height: 240, frames: 400)
        let cell = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 240, height: 240)))
        #expect(cell.isStreamed && cell.frameCount == 400 && cell.cost < DecodeOptions.thumbnailFrameBytes)
        let few = try ImageCoders.decode(Self.gif(width: 240, height: 240, frames: 60), options: DecodeOptions(targetSize: PixelSize(width: 240, height: 240)))
        #expect(!few.isStreamed && few.frames.count == 60)
        let view = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 1280, height: 900)))
        #expect(view.frames.count == 400)
        #expect(try ImageCoders.decode(data).frames.count == 400)
        #expect(DecodeOptions.defaultFrameByteLimit(targetSize: PixelSize(width: 30, height: 30)) == DecodeOptions.thumbnailFrameBytes)
        #expect(DecodeOptions.defaultFrameByteLimit(targetSize: PixelSize(width: 1000, height: 1000)) == 256_000_000)
    }
}

/// A frame as a still keeps one identity however often it is asked for (renderers' caches and
/// kitty's uploads key on it).
@Suite struct FrameImageTests {
    @Test func aFramesStillHasOneIdentityOfItsOwn() throws {
        let image = try ImageCoders.decode(OutputBudgetTests.gif(width: 4, height: 4, frames: 3))
        #expect(image.frames.count == 3)
        let first = image.frameImage(1), again = image.frameImage(1), other = image.frameImage(2)
        #expect(first.id == again.id && first.id != other.id && first.id != image.id)
        #expect(first.pixels == image.frames[1].pixels && !first.isAnimated && first.size == image.size)
        #expect(image.frameImage(7).id == image.id, "no such frame: the image itself")
        let still = try ImageCoders.decode(OutputBudgetTests.gif(width: 4, height: 4, frames: 1))
        #expect(still.frameImage(0).id == still.id)
    }
}
