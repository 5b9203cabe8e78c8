import Foundation
import Testing
import TestSupport
import CWebP
@testable import ImageCodecs

@Suite struct WebPDecoderTests {
    @Test(arguments: ["webp/lossy.webp", "webp/lossless.webp", "webp/alpha.webp"])
    func matchesDwebp(name: String) throws {
        let (image, mad) = try Reference.difference(name)
        #expect(image.size == PixelSize(width: 77, height: 45))
        #expect(mad <= 0.0)
    }

    @Test func scaledDecodeUsesLibwebpScaling() throws {
        let options = DecodeOptions(targetSize: PixelSize(width: 38, height: 38))
        let (image, mad) = try Reference.difference("webp/lossy.webp", options: options, size: PixelSize(width: 38, height: 22))
        #expect(image.size == PixelSize(width: 38, height: 22))
        #expect(image.sourceSize == PixelSize(width: 77, height: 45))
        #expect(mad <= 3.0)
    }

    @Test func animationMatchesTheGIFItCameFrom() throws {
        let (image, mad) = try Reference.difference("webp/anim.webp")
        #expect(image.frames.count == 5)
        #expect(image.loopCount == 3)
        #expect(abs(image.frames[4].duration - 0.25) < 0.001)
        #expect(mad <= 0.0)
        let first = try ImageCoders.decode(try Reference.data("webp/anim.webp"), options: DecodeOptions(firstFrameOnly: true))
        #expect(first.frames.isEmpty && first.size == PixelSize(width: 40, height: 30))
    }

    /// Every frame of libwebp's own animation decoder (`WebPAnimDecoder`, kept as the oracle), from
    /// the frames walked here: blended over what is there (alpha and opaque), replaced, disposed.
    static func libwebpFrames(_ data: Data) throws -> [[UInt8]] {
        try data.withUnsafeBytes { raw in
            let decoder = try #require(sdg_webp_anim_new(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count))
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            #expect(WebPAnimDecoderGetInfo(decoder, &info) != 0)
            var frames: [[UInt8]] = []
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                #expect(WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0)
                frames.append(Array(UnsafeBufferPointer(start: try #require(buffer), count: Int(info.canvas_width * info.canvas_height) * 4)))
            }
            return frames
        }
    }

    @Test(arguments: ["webp/anim.webp", "webp/anim-alpha-blend.webp", "webp/anim-opaque-blend.webp"])
    func animationFramesEqualLibwebpsAnimationDecoder(name: String) throws {
        let data = try Reference.data(name)
        let want = try Self.libwebpFrames(data)
        let image = try ImageCoders.decode(data)
        #expect(image.frames.count == want.count)
        for (i, (got, expected)) in zip(image.frames.map(\.pixels), want).enumerated() {
            let worst = zip(got, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "frame \(i): a channel off by \(worst)")
        }
    }

    /// libwebp's animation decoder finds frame n from the first (n²/2 steps: 80,000 frames took
    /// 10.7 s); the frames are walked once here. 20,000 frames of 40×30: every one decoded.
    @Test func aLongAnimationIsWalkedFrameByFrame() throws {
        let data = try Reference.data("webp/anim-opaque-blend.webp")
        let riff = WebPAnimations.repeatingFirstFrame(data, count: 20_000)
        let image = try ImageCoders.decode(riff, options: DecodeOptions(targetSize: PixelSize(width: 2, height: 2), maxFrames: 20_000))
        #expect(image.frames.count == 20_000)
        let capped = try ImageCoders.decode(riff, options: DecodeOptions(targetSize: PixelSize(width: 2, height: 2)))
        #expect(capped.frames.count == DecodeOptions.defaultMaxFrames)
    }

    @Test func truncatedWebPIsAnError() throws {
        #expect(throws: DecodeError.self) { try ImageCoders.decode(try Reference.data("bad/truncated.webp")) }
        #expect(throws: DecodeError.pixelLimitCheck) { try ImageCoders.decode(try Reference.data("webp/lossy.webp"), options: DecodeOptions(pixelLimit: 100)) }
    }
}

extension DecodeError {
    /// The `.tooLarge` a 77×45 fixture gives under a small cap.
    static let pixelLimitCheck = DecodeError.tooLarge(width: 77, height: 45)
}
