import Foundation
import ImageCodecs
import Synchronization
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImagePrefetcherTests {
    @Test func countsFinishedAndSkippedAndStoresToDiskOnly() async throws {
        let kit = try await ManagerTestKit.make()
        let urls = (0..<6).map { i -> URL in
            kit.serve("/p\(i).png", color: (UInt8(i * 30), 0, 0, 255))
            return kit.server.url("/p\(i).png")
        }
        _ = await kit.manager.results(urls[0])
        _ = await kit.manager.results(urls[3])
        kit.manager.cache.waitUntilIdle()
        kit.manager.cache.clearMemory()
        let prefetcher = ImagePrefetcher(manager: kit.manager)
        let done = CallbackRecorder<[Int]>()
        let progress = CallbackRecorder<Int>()
        let token = prefetcher.prefetchURLs(urls, progress: { n, _ in progress.record(n) }) { finished, skipped in
            done.record([finished, skipped])
        }
        #expect(await done.wait(count: 1, timeout: .seconds(30)))
        #expect(done.all.first == [4, 2])
        #expect(token.finishedCount == 4 && token.skippedCount == 2)
        #expect(progress.all.sorted() == [1, 2, 3, 4, 5, 6])
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 6)
        #expect(kit.manager.cache.memory.count == 0)
        #expect(kit.server.requests.count == 6)  // 2 loads + 4 prefetches, the skipped ones not fetched
        await kit.tearDown()
    }

    @Test func neverRunsMoreThanItsConcurrency() async throws {
        let kit = try await ManagerTestKit.make()
        let urls = (0..<9).map { i -> URL in
            var slow = StubResponse.ok(TestPNG.solid(width: 16, height: 16, rgba: (1, UInt8(i), 1, 255)))
            slow.bytesPerSecond = 20_000
            kit.server.route("/s\(i).png", slow)
            return kit.server.url("/s\(i).png")
        }
        let prefetcher = ImagePrefetcher(manager: kit.manager, maxConcurrentPrefetchCount: 3)
        let done = CallbackRecorder<Int>()
        prefetcher.prefetchURLs(urls) { finished, _ in done.record(finished) }
        var peak = 0
        while done.all.isEmpty {
            let inFlight = kit.server.requests.filter { !$0.finished && !$0.clientDisconnectedEarly }.count
            peak = max(peak, inFlight)
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(peak <= 3)
        #expect(done.all == [9])
        await kit.tearDown()
    }

    @Test func visibleLoadJoinsTheRunningPrefetch() async throws {
        let kit = try await ManagerTestKit.make()
        var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (7, 7, 7, 255)), contentType: "image/png")
        slow.bytesPerSecond = 30_000
        kit.server.route("/j.png", slow)
        let url = kit.server.url("/j.png")
        let prefetcher = ImagePrefetcher(manager: kit.manager)
        let token = prefetcher.prefetchURLs([url])
        #expect(await kit.server.waitUntil { !$0.isEmpty })
        let visible = await kit.manager.results(url, targetSize: PixelSize(width: 8, height: 8),
                                                priority: .high)
        #expect(visible.first?.image?.size == PixelSize(width: 8, height: 8))
        #expect(kit.server.requests(to: "/j.png").count == 1)
        #expect(token.isDone || token.finishedCount <= 1)
        await kit.tearDown()
    }

    @Test func cancelStopsPrefetching() async throws {
        let kit = try await ManagerTestKit.make()
        let urls = (0..<6).map { i -> URL in
            var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (1, 1, UInt8(i), 255)))
            slow.bytesPerSecond = 1_000  // cannot finish before the cancel on a loaded machine
            slow.chunkSize = 256
            kit.server.route("/c\(i).png", slow)
            return kit.server.url("/c\(i).png")
        }
        let prefetcher = ImagePrefetcher(manager: kit.manager, maxConcurrentPrefetchCount: 2)
        let completed = CallbackRecorder<Int>()
        prefetcher.prefetchURLs(urls) { finished, _ in completed.record(finished) }
        #expect(await kit.server.waitUntil { $0.count == 2 })
        prefetcher.cancelPrefetching()
        #expect(await kit.server.waitUntil(timeout: .seconds(30)) { $0.allSatisfy(\.clientDisconnectedEarly) })
        #expect(await kit.manager.untilIdle())
        #expect(kit.server.requests.count == 2)
        #expect(completed.all.count == 0)
        await kit.tearDown()
    }
}

@Suite struct ImagePrefetcherMemoryOnlyTests {
    @Test func skipsImagesAlreadyInMemoryWhenThereIsNoDisk() async throws {
        let kit = try await ManagerTestKit.make()
        var config = ImageCacheConfig()
        config.shouldUseDiskCache = false
        let manager = ImageManager(cache: ImageCache(config: config), downloader: kit.manager.downloader)
        kit.serve("/m.png", color: (1, 2, 3, 255))
        let url = kit.server.url("/m.png")
        let box = PixelSize(width: 4, height: 4)
        _ = await manager.results(url, targetSize: box)
        let done = CallbackRecorder<[Int]>()
        ImagePrefetcher(manager: manager).prefetchURLs([url], like: ImageRequest(url: nil, targetSize: box), storeInMemory: true) { f, s in done.record([f, s]) }
        #expect(await done.wait(count: 1))
        #expect(done.all.first == [0, 1])
        #expect(kit.server.requests(to: "/m.png").count == 1)
        await kit.tearDown()
    }
}

@Suite struct ImagePrefetcherSchedulingTests {
    @Test func theLimitHoldsAcrossCallsAndCancelsGiveSlotsBack() async throws {
        let kit = try await ManagerTestKit.make()
        var urls: [URL] = []
        for i in 0..<9 {
            var slow = StubResponse.ok(TestPNG.solid(width: 24, height: 24, rgba: (UInt8(i), 9, 9, 255)))
            slow.bytesPerSecond = 12_000
            slow.chunkSize = 512
            kit.server.route("/g\(i).png", slow)
            urls.append(kit.server.url("/g\(i).png"))
        }
        let prefetcher = ImagePrefetcher(manager: kit.manager, maxConcurrentPrefetchCount: 3)
        let done = CallbackRecorder<Int>()
        // One call per URL, as a gallery window does: the limit must still be global.
        let tokens = urls.map { url in prefetcher.prefetchURLs([url]) { finished, _ in done.record(finished) } }
        #expect(await kit.server.waitUntil { $0.count >= 3 })
        tokens[0].cancel()
        tokens[1].cancel()
        var peak = 0
        let deadline = ContinuousClock.now + .seconds(15)
        while done.all.count < 7 && ContinuousClock.now < deadline {
            // The two cancelled transfers are gone for the client; the server notices at its next write.
            let live = kit.server.requests.filter { !["/g0.png", "/g1.png"].contains($0.path) }
            peak = max(peak, live.filter { !$0.finished && !$0.clientDisconnectedEarly }.count)
            try await Task.sleep(for: .milliseconds(3))
        }
        #expect(peak <= 3)
        #expect(done.all.count == 7, "the prefetcher stalled after cancels: \(done.all.count) of 7 finished")
        #expect(kit.server.requests.count <= 9)
        await kit.tearDown()
    }
}
