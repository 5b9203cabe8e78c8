import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import ImageCodecs

/// Animations whose frames do not all fit their budgets are streamed (`FrameStream`): every frame
/// plays, decoded as it is asked for, equal to the frame a decode that holds them all gives.
@Suite struct FrameStreamTests {
    static let width = 64, height = 48, count = 200
    static let data = TestGIF.animation(width: width, height: height, frames: count)
    /// Room for the canvases and 20 frames: a decode that holds frames kept 20 and looped over them.
    static let tight = DecodeOptions(outputByteLimit: width * height * 4 * 2 + 20 * (width * height * 4 + OutputBudget.frameOverhead))

    static func held(_ data: Data = data, options: DecodeOptions = DecodeOptions()) throws -> Image {
        let image = try ImageCoders.decode(data, options: options)
        #expect(!image.isStreamed)
        return image
    }

    @Test func anAnimationOverTheByteBudgetPlaysEveryFrameAsTheHeldDecodeDoes() throws {
        let reference = try Self.held()
        #expect(reference.frames.count == Self.count)
        let streamed = try ImageCoders.decode(Self.data, options: Self.tight)
        #expect(streamed.isStreamed && streamed.frames.isEmpty)
        #expect(streamed.frameCount == Self.count && streamed.isAnimated)
        #expect(streamed.frameDurations == reference.frameDurations)
        #expect(streamed.loopCount == 0 && same(streamed.pixels, reference.pixels))
        for i in 0..<Self.count {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "frame \(i)")
        }
        #expect(!same(streamed.frameImage(Self.count - 1).pixels, reference.frames[0].pixels), "the squares drawn show")
    }

    /// A grid cell's box: `frameByteLimit` held 16 MB of frames; a stream scales each as the held decode does.
    @Test func aCellsBoxStreamsScaledFramesPastItsFrameLimit() throws {
        let box = PixelSize(width: 32, height: 24)
        let reference = try Self.held(options: DecodeOptions(targetSize: box, frameByteLimit: .max))
        let streamed = try ImageCoders.decode(Self.data, options: DecodeOptions(targetSize: box, frameByteLimit: 10 * 32 * 24 * 4))
        #expect(streamed.isStreamed && streamed.size == box && streamed.frameCount == Self.count)
        for i in stride(from: 0, to: Self.count, by: 7) {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "frame \(i)")
        }
    }

    @Test func framesAskedBackwardsAndLoopingAreTheSame() throws {
        let reference = try Self.held()
        let streamed = try ImageCoders.decode(Self.data, options: Self.tight)
        for i in (0..<Self.count).reversed() where i % 3 == 0 {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "backwards \(i)")
        }
        for loop in 0..<2 {
            for i in [0, 1, 2, 50, 51, 49, 48, 199, 0, 1] {
                #expect(same(streamed.frameImage(i).pixels, reference.frames[i].pixels), "loop \(loop) frame \(i)")
            }
        }
        #expect(streamed.frameImage(1).id == streamed.frameImage(1).id && streamed.frameImage(1).id != streamed.frameImage(2).id)
    }

    @Test func framesAskedFromManyThreadsAtOnceGetTheirOwnPixels() throws {
        let reference = try Self.held()
        let streamed = try ImageCoders.decode(Self.data, options: Self.tight)
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<40 {
                let i = (thread * 53 + step * 31) % Self.count
                if streamed.frameImage(i).pixels != reference.frames[i].pixels { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }

    /// Cut in the middle of frame 150's image data: the scan counts the 150 complete frames.
    @Test func aTruncatedFileStreamsItsCompleteFrames() throws {
        let reference = try Self.held()
        let cut = try #require(Self.offset(ofFrame: 150)) + 20
        let streamed = try ImageCoders.decode(Self.data.prefix(cut), options: Self.tight)
        #expect(streamed.isStreamed && streamed.frameCount == 150)
        #expect(same(streamed.frameImage(149).pixels, reference.frames[149].pixels))
        #expect(streamed.frameImage(150).id == streamed.id, "no such frame")
    }

    /// Frame 120's LZW codes end after its first pixel (giflib: "EOF too soon"): the scan, which does not decode
    /// them, counts 200 frames; frame 120 and every later one show frame 119, the last good one, and
    /// the frames before it still decode when the loop comes round.
    @Test func aFrameDamagedMidStreamRepeatsTheLastGoodFrame() throws {
        let reference = try Self.held()
        var damaged = Self.data
        let frame = try #require(Self.offset(ofFrame: 120))
        damaged[frame + 14] = 129  // the end code after one pixel of 64
        #expect(try Self.held(damaged).frames.count == 120, "a held decode keeps the frames before the damage")
        let streamed = try ImageCoders.decode(damaged, options: Self.tight)
        #expect(streamed.frameCount == Self.count)
        #expect(same(streamed.frameImage(118).pixels, reference.frames[118].pixels))
        for i in [120, 121, 199, 150] {
            #expect(same(streamed.frameImage(i).pixels, reference.frames[119].pixels), "frame \(i)")
        }
        #expect(same(streamed.frameImage(5).pixels, reference.frames[5].pixels))
        #expect(same(streamed.frameImage(130).pixels, reference.frames[119].pixels))
    }

    @Test func theStreamsMemoryIsReservedUntilItsImageGoes() throws {
        let memory = DecodeMemory(limit: 64 << 20)
        var options = Self.tight
        options.memory = memory
        do {
            let streamed = try ImageCoders.decode(Self.data, options: options)
            #expect(streamed.isStreamed)
            let frameBytes = Self.width * Self.height * 4
            #expect(memory.held >= Self.data.count + Self.width * Self.height * 9 + frameBytes)
            #expect(memory.held == streamed.stream?.reservedBytes)
            _ = streamed.frameImage(150)
            _ = streamed.frameImage(3)
            #expect(memory.held == streamed.stream?.reservedBytes)
            #expect(streamed.cost == frameBytes + (streamed.stream?.byteCost ?? 0))
            #expect(streamed.cost < Self.count * frameBytes)
            #expect(streamed.allFramesCost == (Self.count + 1) * frameBytes)
            withExtendedLifetime(streamed) {}
        }
        #expect(memory.held == 0)
    }

    /// Whether two frames' pixels are equal (a failure names the frame, not its thousands of bytes).
    func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }

    /// Where frame `index`'s image descriptor starts in `data`: after the frames before it (the
    /// file of `index` frames without its trailer) and its graphics control extension (8 bytes).
    static func offset(ofFrame index: Int) -> Int? {
        let offset = TestGIF.animation(width: width, height: height, frames: index).count - 1 + 8
        let bytes = [UInt8](data[offset..<offset + 13])
        let x = (index * 13) % (width - 8 + 1), y = (index * 7) % (height - 8 + 1)
        return bytes == [0x2C, UInt8(x), 0, UInt8(y), 0, 8, 0, 8, 0, 0, 7, 66, 128] ? offset : nil
    }
}
