import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// Issue 30: animation frames had no bound across cells: 16 animated GIFs of 10,850 frames held
/// 4.2 GB in a sixel grid, whose cells show stills. `.decodeFirstFrameOnly` decodes the first frame
/// only, from the network and from the disk cache, as a cache entry of its own (a still never
/// stands for the frames the full view plays).
@Suite(.serialized) struct DecodeFirstFrameOnlyTests {
    /// A `size`×`size` GIF of `frames` full-canvas frames (black, then white, alternating).
    static func animatedGIF(size: Int, frames: Int) -> Data {
        var bytes: [UInt8] = Array("GIF89a".utf8)
        bytes += [UInt8(size), 0, UInt8(size), 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF]
        for frame in 0..<frames {
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]           // 100 ms, no disposal
            bytes += [0x2C, 0, 0, 0, 0, UInt8(size), 0, UInt8(size), 0, 0]     // a full-canvas frame
            // LZW, minimum code size 2: clear, then the pixels as literal codes (one colour), end.
            var codes: [Int] = [4]
            for index in 0..<(size * size) {
                codes.append(frame % 2)
                if index % 2 == 1 { codes.append(4) }  // clear often: codes stay 3 bits wide
            }
            codes.append(5)
            var packed: [UInt8] = [], accumulator = 0, bits = 0
            for code in codes {
                accumulator |= code << bits
                bits += 3
                while bits >= 8 { packed.append(UInt8(accumulator & 0xFF)); accumulator >>= 8; bits -= 8 }
            }
            if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
            bytes.append(2)
            var offset = 0
            while offset < packed.count {
                let block = packed[offset..<min(packed.count, offset + 255)]
                bytes.append(UInt8(block.count))
                bytes += block
                offset += block.count
            }
            bytes.append(0)
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    @Test func stillsDecodeTheFirstFrameOnlyFromTheNetworkAndFromDisk() async throws {
        let gif = Self.animatedGIF(size: 16, frames: 40)
        #expect(try ImageCoders.decode(gif).frames.count == 40)
        let kit = try await ManagerTestKit.make()
        defer { Task { await kit.tearDown() } }
        var stub = StubResponse.ok(gif, contentType: "image/gif")
        stub.headers["Cache-Control"] = "max-age=3600"  // fresh: later loads make no request
        kit.server.route("/anim.gif", stub)
        let url = kit.server.url("/anim.gif")
        let target = PixelSize(width: 16, height: 16)
        let still = try await kit.manager.image(for: ImageRequest(url: url, targetSize: target, delivery: .decodeFirstFrameOnly))
        #expect(!still.image.isAnimated)
        // The same URL and size with every frame: its own entry, decoded from the disk's original.
        let playing = try await kit.manager.image(for: ImageRequest(url: url, targetSize: target))
        #expect(playing.image.frames.count == 40)
        #expect(ImageCacheKey(url: url, targetSize: target, firstFrameOnly: true) != ImageCacheKey(url: url, targetSize: target))
        // A later run (nothing in memory): the still comes from the disk's original, first frame only.
        kit.manager.cache.waitUntilIdle()
        let later = ManagerTestKit.makeManager(directory: kit.directory, clock: kit.clock, memory: false)
        let fromDisk = try await later.image(for: ImageRequest(url: url, targetSize: target, delivery: .decodeFirstFrameOnly))
        #expect(!fromDisk.image.isAnimated)
        let framesFromDisk = try await later.image(for: ImageRequest(url: url, targetSize: target))
        #expect(framesFromDisk.image.frames.count == 40, "a still on disk stood for the frames")
        #expect(kit.server.requests(to: "/anim.gif").count == 1)
    }
}
