import Foundation
import Testing
import TestSupport
@testable import ImageCodecs

/// An animated WebP whose frames do not all fit its budgets is streamed as a GIF is
/// (`FrameStreamTests`): every frame plays, equal to the held decode's.
@Suite struct WebPFrameStreamTests {
    /// 6 frames of 40×30 with alpha blending, 40 times over: 240 frames.
    static func data() throws -> Data { WebPAnimations.repeatingFrames(try Reference.data("webp/anim-alpha-blend.webp"), times: 40) }
    /// Room for the canvases and 20 frames.
    static let tight = DecodeOptions(outputByteLimit: 40 * 30 * 4 * 3 + 20 * (40 * 30 * 4 + OutputBudget.frameOverhead))

    func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }

    @Test func anAnimationOverTheByteBudgetPlaysEveryFrameAsTheHeldDecodeDoes() throws {
        let data = try Self.data()
        let reference = try ImageCoders.decode(data)
        #expect(!reference.isStreamed && reference.frames.count == 240)
        let streamed = try ImageCoders.decode(data, options: Self.tight)
        #expect(streamed.isStreamed && streamed.frames.isEmpty && streamed.frameCount == 240)
        #expect(streamed.frameDurations == reference.frameDurations && streamed.loopCount == reference.loopCount)
        for i in 0..<240 {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "frame \(i)")
        }
        for i in [239, 3, 2, 100, 0, 1, 238] {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "again, frame \(i)")
        }
    }

    /// A frame chunk cut short at the end: the chunks before it are the animation.
    @Test func aTruncatedFileStreamsItsCompleteFrames() throws {
        let data = try Self.data()
        let reference = try ImageCoders.decode(data)
        let streamed = try ImageCoders.decode(data.prefix(data.count - 10), options: Self.tight)
        #expect(streamed.isStreamed && streamed.frameCount == 239)
        #expect(same(streamed.frameImage(238).pixels, reference.frames[238].pixels))
    }

    @Test func theStreamsMemoryIsReservedUntilItsImageGoes() throws {
        let memory = DecodeMemory(limit: 16 << 20)
        var options = Self.tight
        options.memory = memory
        do {
            let streamed = try ImageCoders.decode(try Self.data(), options: options)
            #expect(streamed.isStreamed && memory.held > 0 && memory.held == streamed.stream?.reservedBytes)
            _ = streamed.frameImage(200)
            withExtendedLifetime(streamed) {}
        }
        #expect(memory.held == 0)
    }
}
