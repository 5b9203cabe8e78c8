import Dispatch
import Foundation
import Locking
import Testing
import Zlib
@testable import ImageCodecs

/// The process-wide decode budget (`DecodeMemory`): many large images at once take turns instead of
/// adding up, a decode larger than the budget fails with its own error, and an incremental decode
/// that does not fit falls back to a one-shot decode with the same result.
@Suite struct DecodeMemoryTests {
    /// A `side`×`side` RGBA PNG of one grey, deflated (a few KB for megapixels).
    static func bigPNG(side: Int) -> Data {
        let row = [UInt8(0)] + [UInt8](repeating: 0x80, count: side * 4)
        var raw = [UInt8]()
        raw.reserveCapacity(row.count * side)
        for _ in 0..<side { raw += row }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(body.count) + typed + be32(Int(Zlib.crc32(typed)))
        }
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(side) + be32(side) + [8, 6, 0, 0, 0])
            + chunk("IDAT", Zlib.deflate(raw, level: 9) ?? []) + chunk("IEND", [])
        return Data(png)
    }

    @Test func aOneShotReservationWaitsForAnotherOneShotToEnd() throws {
        let memory = DecodeMemory(limit: 100)
        var first: DecodeMemory.Reservation? = try memory.reserve(80)
        let granted = Locked(false)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let second = try? memory.reserve(50)
            granted.withLock { $0 = second != nil }
            done.signal()
        }
        // The second waits while the first holds 80 of 100 …
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(memory.held == 80)
        withExtendedLifetime(first) {}
        first = nil
        // … and runs once it is given back.
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(granted.withLock { $0 })
        #expect(memory.peak == 80)
    }

    /// A decode that learns it needs less (a JPEG XL at its DC) gives the rest back at once: an
    /// incremental decode refused before fits, a one-shot one waiting for it runs.
    @Test func aShrunkReservationGivesTheRestBackAtOnce() throws {
        let memory = DecodeMemory(limit: 100, incrementalPatience: 30)
        let held = try #require(memory.tryReserve(90))
        #expect(memory.tryReserve(20) == nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if (try? memory.reserve(30)) != nil { done.signal() }  // given back at once
        }
        held.shrink(to: 40)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(memory.held == 40)
        #expect(memory.tryReserve(20) != nil)
        held.shrink(to: 50)  // never grows
        #expect(memory.held == 40)
        withExtendedLifetime(held) {}
    }

    @Test func aOneShotWaitsForIncrementalDecodesOnlyForAWhile() throws {
        let memory = DecodeMemory(limit: 100, incrementalPatience: 0.2)
        var incremental: DecodeMemory.Reservation? = memory.tryReserve(90)
        #expect(incremental != nil)
        // Only an incremental decode holds the rest: it may be queued behind this one, so the wait
        // ends after the patience, and the one-shot decode runs anyway.
        let oneShot = try memory.reserve(50)
        #expect(memory.held == 140)
        // An incremental decode never waits: refused while it does not fit.
        #expect(memory.tryReserve(1) == nil)
        withExtendedLifetime(oneShot) {}
        // When the incremental decode ends within the patience, the one-shot one fits in the limit.
        let granted = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let waiting = DecodeMemory(limit: 100, incrementalPatience: 30)
        var holder: DecodeMemory.Reservation? = waiting.tryReserve(90)
        #expect(holder != nil)
        DispatchQueue.global().async {
            let second = try? waiting.reserve(50)
            granted.withLock { $0 = second != nil }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        withExtendedLifetime(holder) {}
        holder = nil
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(granted.withLock { $0 })
        #expect(waiting.peak == 90, "it waited for the incremental decode's bytes")
        withExtendedLifetime(incremental) {}
        incremental = nil
    }

    /// A streamed animation keeps its reservation as long as its image lives (`keepAfterDecode`):
    /// one-shot decodes count it as an incremental decode's and wait for it only for a while, as
    /// they would never see a cached image go.
    @Test func aKeptReservationHoldsOneShotsBackOnlyForAWhile() throws {
        let memory = DecodeMemory(limit: 100, incrementalPatience: 0.2)
        let kept = try memory.reserve(90)
        kept.keepAfterDecode()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let oneShot = try? memory.reserve(50)
            withExtendedLifetime(oneShot) {}
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success, "a one-shot decode waited for ever on a kept reservation")
        #expect(memory.held == 90 && kept.bytes == 90)
        kept.keepAfterDecode()  // once only
        #expect(memory.held == 90)
        withExtendedLifetime(kept) {}
    }

    @Test func aDecodeLargerThanTheWholeBudgetFailsWithItsOwnError() throws {
        let memory = DecodeMemory(limit: 8 << 20)
        let png = Self.bigPNG(side: 2000)  // 16 MB of RGBA, twice while decoding
        #expect(throws: DecodeError.overMemoryBudget(needed: 2000 * 2000 * 8, limit: 8 << 20)) {
            try ImageCoders.decode(png, options: DecodeOptions(memory: memory))
        }
        #expect(memory.held == 0)
        let error = DecodeError.overMemoryBudget(needed: 2000 * 2000 * 8, limit: 8 << 20)
        #expect(error.description == "too large for the memory budget (31 MB > 8 MB)")
    }

    @Test func largeImagesDecodedAtOnceTakeTurnsWithinTheBudget() throws {
        let png = Self.bigPNG(side: 2000)
        let need = 2000 * 2000 * 4 + 160 * 160 * 8  // libpng's image, the target scaled straight from it
        let memory = DecodeMemory(limit: need + need / 2)  // room for one at a time
        let options = DecodeOptions(targetSize: PixelSize(width: 160, height: 160), memory: memory)
        let sizes = Locked([PixelSize]())
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let size = (try? ImageCoders.decode(png, options: options))?.size
            sizes.withLock { $0.append(size ?? PixelSize(width: 0, height: 0)) }
        }
        #expect(sizes.withLock { $0 } == Array(repeating: PixelSize(width: 160, height: 160), count: 6))
        #expect(memory.peak >= need)
        #expect(memory.peak <= memory.limit)
        #expect(memory.held == 0)
    }

    @Test func aProgressiveJPEGReservesItsCoefficients() throws {
        let data = try Reference.data("jpeg/progressive.jpg")
        let memory = DecodeMemory(limit: 1 << 30)
        let image = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 8, height: 8), memory: memory))
        let stored = image.sourceSize
        // Every block of every component, 128 bytes each (4:2:0 at least half the luma's).
        let lumaBlocks = ((stored.width + 7) / 8) * ((stored.height + 7) / 8)
        #expect(memory.peak >= lumaBlocks * 128 * 3 / 2)
        #expect(memory.held == 0)
    }

    @Test(arguments: ["stream/progressive.jpg", "stream/baseline.jpg", "stream/rows.png"])
    func anIncrementalDecodeThatDoesNotFitEndsAsTheOneShotDecode(name: String) throws {
        let data = try Reference.data(name)
        let memory = DecodeMemory(limit: 64 << 20)
        let options = DecodeOptions(targetSize: PixelSize(width: 40, height: 40), memory: memory)
        let oneShot = try ImageCoders.decode(data, options: options)
        // Another decode holds nearly all of it while the bytes arrive.
        var other: DecodeMemory.Reservation? = memory.tryReserve((64 << 20) - 1024)
        let decoder = ImageCoders.makeIncrementalDecoder(options: options)
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + 997)
            decoder.append(data.subdata(in: offset..<end))
            offset = end
            #expect(decoder.partialImage() == nil)  // it never started
        }
        withExtendedLifetime(other) {}
        other = nil
        let final = try decoder.finish()
        #expect(final.size == oneShot.size)
        #expect(final.pixels == oneShot.pixels)
        #expect(memory.held == 0)
    }

    /// A session refused while memory is short tries again as bytes come: once memory frees, a
    /// progressive JPEG still stops at its DC scans for a small target instead of waiting for the end.
    @Test func aRefusedSessionStartsOnceMemoryFreesAndStillStopsEarly() throws {
        let data = try Reference.data("stream/progressive.jpg")
        let memory = DecodeMemory(limit: 64 << 20)
        let options = DecodeOptions(targetSize: PixelSize(width: 10, height: 6), memory: memory)
        var other: DecodeMemory.Reservation? = memory.tryReserve((64 << 20) - 1024)
        let decoder = ImageCoders.makeIncrementalDecoder(options: options)
        var offset = 0, sufficientAt: Int?
        while offset < data.count, sufficientAt == nil {
            let end = min(data.count, offset + 512)
            decoder.append(data.subdata(in: offset..<end))
            offset = end
            if offset >= 6000, other != nil {
                withExtendedLifetime(other) {}
                other = nil
            }
            if decoder.sufficientImage() != nil { sufficientAt = offset }
        }
        let stoppedAt = try #require(sufficientAt, "never final before the end")
        #expect(stoppedAt < data.count)
        #expect(memory.peak > 0)
    }
}
