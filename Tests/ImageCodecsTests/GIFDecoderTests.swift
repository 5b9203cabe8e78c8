import Foundation
import Testing
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
