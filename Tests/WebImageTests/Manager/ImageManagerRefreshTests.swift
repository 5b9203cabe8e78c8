import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImageManagerRefreshTests {
    @Test func unchangedETagGets304AndOneImage() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/v.png", color: (10, 20, 30, 255), etag: "\"v1\"")
        let url = kit.server.url("/v.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()

        let refreshed = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(refreshed.count == 2)
        #expect(refreshed.first?.image?.firstPixel == [10, 20, 30, 255])
        #expect(refreshed.first?.cacheType == .memory)
        #expect(refreshed.last?.isNotModified == true)
        #expect(refreshed.last?.image == nil)
        #expect(refreshed.last?.error == nil)
        let requests = kit.server.requests(to: "/v.png")
        #expect(requests.count == 2)
        #expect(requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(requests.last?.status == 304)
        await kit.tearDown()
    }

    @Test func changedContentIsDeliveredAndStored() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/c.png", color: (10, 20, 30, 255), etag: "\"v1\"")
        let url = kit.server.url("/c.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.serve("/c.png", color: (200, 100, 50, 255), etag: "\"v2\"")

        let refreshed = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(refreshed.map { $0.image?.firstPixel } == [[10, 20, 30, 255], [200, 100, 50, 255]])
        #expect(refreshed.last?.isNotModified == false)
        kit.manager.cache.waitUntilIdle()
        kit.manager.cache.clearMemory()
        let stored = await kit.manager.results(url)
        #expect(stored.first?.cacheType == .disk)
        #expect(stored.first?.image?.firstPixel == [200, 100, 50, 255])
        // The next refresh revalidates with the new validator.
        _ = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(kit.server.requests(to: "/c.png").last?.header("If-None-Match") == "\"v2\"")
        #expect(kit.server.requests(to: "/c.png").last?.status == 304)
        await kit.tearDown()
    }

    @Test func refreshErrorKeepsTheCachedImage() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/e.png", color: (1, 1, 1, 255), etag: "\"v1\"")
        let url = kit.server.url("/e.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.server.route("/e.png", .status(503))
        let refreshed = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(refreshed.first?.image != nil)
        #expect(refreshed.last?.error != nil)
        #expect(await kit.manager.results(url).first?.cacheType == .memory)
        await kit.tearDown()
    }

    @Test func cancelDuringCacheQueryAndDuringDownloadNeverCallsBack() async throws {
        // No memory level: every load below is a disk query in flight (a memory hit would deliver
        // synchronously, before cancel() could be called — correctly).
        let kit = try await ManagerTestKit.make(memory: false)
        kit.serve("/q.png", color: (3, 3, 3, 255))
        let url = kit.server.url("/q.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        // The invariant: nothing calls back once cancel() has returned. (A query that completes
        // before cancel() is called may deliver; under load that happens, and it is correct.)
        let calls = LoadRecorder()
        let lateCalls = CallbackRecorder<Int>()
        for i in 0..<50 {  // disk query in flight on the I/O queue
            let cancelled = CancelFlag()
            kit.manager.loadImage(with: url) { _ in if cancelled.isSet { lateCalls.record(i) } }.cancel()
            cancelled.set()
        }
        var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (4, 4, 4, 255)))
        slow.bytesPerSecond = 1000  // 16 s: cannot finish before the cancel, however loaded the machine
        slow.chunkSize = 256
        kit.server.route("/slow.png", slow)
        // Its progress may come before the cancel; nothing may come after it.
        let slowCancelled = CancelFlag()
        let download = kit.manager.loadImage(with: kit.server.url("/slow.png")) { event in
            if case .progress = event, !slowCancelled.isSet { return }
            calls.record(event)
        }
        #expect(await kit.server.waitUntil { log in log.contains { $0.path == "/slow.png" && $0.bytesSent > 0 } })
        download.cancel()
        slowCancelled.set()
        #expect(await kit.server.waitUntil(timeout: .seconds(30)) { log in
            log.contains { $0.path == "/slow.png" && $0.clientDisconnectedEarly }
        })
        #expect(await kit.manager.untilIdle())
        #expect(lateCalls.all.count == 0, "callbacks after cancel() returned: \(lateCalls.all)")
        #expect(calls.all.count == 0)
        #expect(kit.manager.runningOperations.isEmpty)
        await kit.tearDown()
    }
}

@Suite struct ImageRequestRevalidationTests {
    /// The seed's manager mapped its options onto the downloader's; here the one request goes down
    /// as is, and a revalidation changes only what a revalidation must.
    @Test func aRevalidationAsksForAFreshWholeBodyWithTheValidatorsAndKeepsTheRest() {
        let kept = ImageRequest.CachePolicy(retryFailed: true)
        let keptTransfer: ImageRequest.TransferOptions = [.handleCookies, .allowInvalidSSLCertificates]
        let request = ImageRequest(url: URL(string: "https://e.example/a.jpg"), targetSize: PixelSize(width: 16, height: 9),
                                   priority: .high, cache: kept, delivery: [.scaleDownLargeImages, .progressiveLoad, .stopWhenSufficient],
                                   transfer: keptTransfer, queueOrder: 7)
        #expect(request.stopsWhenSufficient)
        let revalidation = request.revalidating(HTTPValidators(etag: "\"e\"", lastModified: "lm"))
        #expect(!revalidation.delivery.contains(.progressiveLoad))
        #expect(revalidation.transfer.contains(.ignoreCachedResponse))
        #expect(!revalidation.stopsWhenSufficient)
        #expect(revalidation.cache == kept && revalidation.delivery == .scaleDownLargeImages && revalidation.transfer.isSuperset(of: keptTransfer))
        #expect(revalidation.headers == ["If-None-Match": "\"e\"", "If-Modified-Since": "lm"])
        #expect(revalidation.priority == .high && revalidation.queueOrder == 7 && revalidation.targetSize == request.targetSize)
        #expect(!request.transfer.contains(.ignoreCachedResponse) && request.headers.isEmpty)
    }

    /// The stop needs no partial images (`--print` asks for it alone), only not the original or a refresh.
    @Test func aTransferStopsEarlyForTheImageNotTheOriginalOrARefresh() {
        let url = URL(string: "https://e.example/a.jpg")
        #expect(ImageRequest(url: url, delivery: [.progressiveLoad, .stopWhenSufficient]).stopsWhenSufficient)
        #expect(ImageRequest(url: url, delivery: [.stopWhenSufficient]).stopsWhenSufficient)
        #expect(!ImageRequest(url: url, delivery: [.progressiveLoad]).stopsWhenSufficient)
        #expect(!ImageRequest(url: url, cache: .init(refreshCached: true), delivery: [.progressiveLoad, .stopWhenSufficient]).stopsWhenSufficient)
        var original = ImageRequest(url: url, delivery: [.progressiveLoad, .stopWhenSufficient])
        original.cache.originalData = true
        #expect(!original.stopsWhenSufficient)
    }

    @Test func refreshWithoutValidatorsDownloadsAgain() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/n.png", color: (1, 1, 1, 255))  // no ETag, no Last-Modified
        let url = kit.server.url("/n.png")
        _ = await kit.manager.results(url)
        kit.serve("/n.png", color: (2, 2, 2, 255))
        let refreshed = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(refreshed.map { $0.image?.firstPixel } == [[1, 1, 1, 255], [2, 2, 2, 255]])
        #expect(kit.server.requests(to: "/n.png").last?.header("If-None-Match") == nil)
        #expect(kit.server.requests(to: "/n.png").last?.header("If-Modified-Since") == nil)
        await kit.tearDown()
    }
}

/// Set once cancel() has returned.
private final class CancelFlag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
