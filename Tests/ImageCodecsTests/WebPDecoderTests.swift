import Foundation
import Testing
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

    @Test func truncatedWebPIsAnError() throws {
        #expect(throws: DecodeError.self) { try ImageCoders.decode(try Reference.data("bad/truncated.webp")) }
        #expect(throws: DecodeError.pixelLimitCheck) { try ImageCoders.decode(try Reference.data("webp/lossy.webp"), options: DecodeOptions(pixelLimit: 100)) }
    }
}

extension DecodeError {
    /// The `.tooLarge` a 77×45 fixture gives under a small cap.
    static let pixelLimitCheck = DecodeError.tooLarge(width: 77, height: 45)
}
