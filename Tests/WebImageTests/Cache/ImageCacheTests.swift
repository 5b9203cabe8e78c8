import Dispatch
import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImageCacheTests {
    static func makeCache(clock: TestClock = TestClock(), events: EventLog = EventLog(), memory: Bool = true) throws -> ImageCache {
        var config = ImageCacheConfig()
        config.directory = try Fixtures.temporaryDirectory("sdgallery-imagecache").appendingPathComponent("c")
        config.clock = clock.closure
        config.decoder = TinyImage.decoder
        config.fsyncDiskWrites = false
        config.shouldCacheImagesInMemory = memory
        config.onEvent = events.sink
        return ImageCache(config: config)
    }

    /// Waits for a callback, with a timeout so nothing can hang.
    static func result(_ start: (@escaping @Sendable (ImageCacheQueryResult) -> Void) -> Void) -> ImageCacheQueryResult? {
        let box = Locked<ImageCacheQueryResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { r in box.withLock { $0 = r }; done.signal() }
        _ = done.wait(timeout: .now() + 5)
        return box.withLock { $0 }
    }

    let url = ImageCacheKey(urlKey: "https://example.com/a.img")

    @Test func memoryHitIsSynchronous() throws {
        let cache = try Self.makeCache()
        cache.store(image: solidImage(4, 4), data: nil, forKey: url)
        let got = Locked<ImageCacheType?>(nil)
        let op = cache.queryCacheOperation(forKey: url) { r in got.withLock { $0 = r.cacheType } }
        #expect(got.withLock { $0 } == .memory)  // before the call returned
        #expect(op.isFinished)
    }

    @Test func diskHitDecodesAtTheTargetSizeWithValidatorsAndFillsMemory() throws {
        let cache = try Self.makeCache()
        let validators = HTTPValidators(etag: "\"e\"", lastModified: "lm")
        let data = TinyImage.data(width: 400, height: 300)
        let stored = DispatchSemaphore(value: 0)
        cache.store(image: nil, data: data, forKey: url, validators: validators) { stored.signal() }
        #expect(stored.wait(timeout: .now() + 5) == .success)
        let thumbKey = url.withTargetSize(PixelSize(width: 40, height: 40))
        let r = try #require(Self.result { cache.queryCacheOperation(forKey: thumbKey, policy: .init(refreshCached: true), done: $0) })
        #expect(r.cacheType == .disk)
        #expect(r.image?.size == PixelSize(width: 40, height: 30))
        #expect(r.image?.sourceSize == PixelSize(width: 400, height: 300))
        #expect(r.validators == validators)
        #expect(r.data == data)
        #expect(cache.memory.image(forKey: thumbKey)?.width == 40)
        #expect(cache.memory.image(forKey: url) == nil)  // the full view is another entry
        let again = try #require(Self.result { cache.queryCacheOperation(forKey: thumbKey, done: $0) })
        #expect(again.cacheType == .memory)
    }

    @Test func missAndMemoryOnly() throws {
        let cache = try Self.makeCache()
        #expect(Self.result { cache.queryCacheOperation(forKey: url, done: $0) }?.cacheType == ImageCacheType.none)
        cache.store(image: nil, data: TinyImage.data(width: 2, height: 2), forKey: url)
        cache.waitUntilIdle()
        #expect(Self.result { cache.queryCacheOperation(forKey: url, policy: .init(read: .memoryOnly), done: $0) }?.cacheType == ImageCacheType.none)
        #expect(cache.diskCount == 1 && cache.diskSize > 0)
    }

    @Test func cancelledQueryNeverCallsBack() throws {
        let cache = try Self.makeCache()
        for i in 0..<50 { cache.store(image: nil, data: TinyImage.data(width: 8, height: 8), forKey: ImageCacheKey(urlKey: "k\(i)")) }
        cache.waitUntilIdle()
        let calls = Locked(0)
        // Block the I/O queue so every query is still pending when it is cancelled.
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let ops = (0..<50).map { i in cache.queryCacheOperation(forKey: ImageCacheKey(urlKey: "k\(i)")) { _ in calls.withLock { $0 += 1 } } }
        ops.forEach { $0.cancel() }
        gate.signal()
        // Without a callback queue, results are delivered on the I/O queue or the decode queue:
        // once both are drained, every callback that could come has come (no sleep needed).
        cache.waitUntilIdle()
        cache.decodeQueue.sync(flags: .barrier) {}
        #expect(calls.withLock { $0 } == 0)
        #expect(ops.allSatisfy { $0.isCancelled })
        // Cancel racing with delivery: never a callback after cancel() has returned.
        let late = Locked(0)
        for i in 0..<50 {
            let cancelled = Locked(false)
            let op = cache.queryCacheOperation(forKey: ImageCacheKey(urlKey: "k\(i)")) { _ in
                if cancelled.withLock({ $0 }) { late.withLock { $0 += 1 } }
            }
            op.cancel()
            cancelled.withLock { $0 = true }
        }
        cache.waitUntilIdle()
        cache.decodeQueue.sync(flags: .barrier) {}
        #expect(late.withLock { $0 } == 0)
    }

    @Test func callbackQueueDeliversAndCancelBeforeDeliveryWins() throws {
        let cache = try Self.makeCache()
        cache.store(image: solidImage(2, 2), data: nil, forKey: url)
        let queue = DispatchQueue(label: "sdgallery.test.callback")
        #expect(Self.result { cache.queryCacheOperation(forKey: url, callbackQueue: queue, done: $0) }?.cacheType == .memory)
        let calls = Locked(0)
        queue.sync {  // the callback queue is busy: the memory hit is found but not yet delivered
            let op = cache.queryCacheOperation(forKey: url, callbackQueue: queue) { _ in calls.withLock { $0 += 1 } }
            #expect(!op.isFinished)
            op.cancel()
        }
        queue.sync {}
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func undecodableDiskBytesAreAMissWithAnError() throws {
        let events = EventLog()
        let cache = try Self.makeCache(events: events)
        cache.store(image: nil, data: Data("not an image".utf8), forKey: url)
        let r = try #require(Self.result { cache.queryCacheOperation(forKey: url, done: $0) })
        #expect(r.cacheType == .none && r.image == nil)
        #expect(r.error != nil)
        #expect(events.errors.count == 1)
    }

    @Test func removeClearTouchAndExpire() async throws {
        let clock = TestClock()
        let cache = try Self.makeCache(clock: clock)
        let thumb = url.withTargetSize(PixelSize(width: 2, height: 2))
        await cache.store(image: solidImage(2, 2), data: TinyImage.data(width: 9, height: 9), forKey: thumb)
        cache.store(image: solidImage(9, 9), data: nil, forKey: url, completion: nil)
        await cache.removeImage(forKey: url)
        #expect(cache.memory.count == 0 && cache.diskCount == 0)
        await cache.store(image: nil, data: TinyImage.data(width: 9, height: 9), forKey: url, validators: HTTPValidators(etag: "1"))
        #expect(await cache.touch(forKey: url, validators: HTTPValidators(etag: "2")))
        let revalidated = try await cache.query(url)
        #expect(revalidated.validators == HTTPValidators(etag: "2"))
        clock.advance(8 * 86400)
        #expect(await cache.cleanExpired() == 1)
        #expect(cache.diskCount == 0)
        await cache.store(image: nil, data: TinyImage.data(width: 9, height: 9), forKey: url)
        await cache.clearDisk()
        cache.clearMemory()
        let cleared = try await cache.query(url)
        #expect(cleared.cacheType == .none)
    }

    @Test func asyncQueryThrowsOnCancellation() async throws {
        let cache = try Self.makeCache()
        await cache.store(image: nil, data: TinyImage.data(width: 9, height: 9), forKey: url)
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let task = Task { try await cache.query(url) }
        task.cancel()
        gate.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func unavailableDirectoryDisablesDiskAndReportsIt() throws {
        let events = EventLog()
        var config = ImageCacheConfig()
        config.directory = URL(fileURLWithPath: "/proc/sdgallery-cannot-exist")
        config.onEvent = events.sink
        let cache = ImageCache(config: config)
        #expect(cache.disk == nil && cache.diskError != nil)
        #expect(events.errors.count == 1)
        cache.store(image: nil, data: Data([1]), forKey: url)
        #expect(cache.diskSize == 0)
    }

    /// With the real codecs: a JPEG disk hit decodes at the target box (DCT-scaled).
    @Test
    func realDecoderDecodesAJPEGDiskHitAtTheTargetSize() async throws {
        var config = ImageCacheConfig()
        config.directory = try Fixtures.temporaryDirectory("sdgallery-imagecache-real").appendingPathComponent("c")
        let cache = ImageCache(config: config)
        let jpeg = try Fixtures.temporaryDirectory("sdgallery-jpeg").appendingPathComponent("a.jpg")
        try await Blocking.run {
            let convert = Process()
            convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
            convert.arguments = ["-size", "640x480", "gradient:red-blue", jpeg.path]
            try convert.run()
            convert.waitUntilExit()
        }
        await cache.store(image: nil, data: try Data(contentsOf: jpeg), forKey: url)
        let r = try #require(Self.result { cache.queryCacheOperation(forKey: url.withTargetSize(PixelSize(width: 160, height: 96)), done: $0) })
        #expect(r.cacheType == .disk)
        #expect(r.image?.size == PixelSize(width: 128, height: 96))
    }
}
