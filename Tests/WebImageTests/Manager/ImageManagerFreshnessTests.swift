import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImageManagerFreshnessTests {
    /// `Cache-Control: no-store` is shown but never written to disk; an ordinary response is.
    @Test func noStoreNeverReachesTheDisk() async throws {
        let kit = try await ManagerTestKit.make()
        var stub = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: (1, 2, 3, 255)), contentType: "image/png")
        stub.headers["Cache-Control"] = "private, no-store"
        kit.server.route("/secret.png", stub)
        kit.serve("/plain.png", color: (4, 5, 6, 255))

        let secret = await kit.manager.results(kit.server.url("/secret.png"))
        #expect(secret.first?.image?.firstPixel == [1, 2, 3, 255])
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 0)

        _ = await kit.manager.results(kit.server.url("/plain.png"))
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 1)
        await kit.tearDown()
    }

    /// A fresh entry (max-age) is served from memory and from disk with no request at all.
    @Test func freshEntryIsServedWithNoRequest() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/f.png", color: (1, 2, 3, 255), etag: "\"f1\"", headers: ["Cache-Control": "max-age=3600"])
        let url = kit.server.url("/f.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.clock.advance(1800)

        let memory = await kit.manager.results(url)
        #expect(memory.first?.cacheType == .memory)
        #expect(memory.first?.isRevalidating == false)
        kit.manager.cache.clearMemory()
        let disk = await kit.manager.results(url)
        #expect(disk.first?.cacheType == .disk)
        #expect(disk.first?.isRevalidating == false)
        #expect(disk.first?.image?.firstPixel == [1, 2, 3, 255])
        #expect(kit.server.requests(to: "/f.png").count == 1)
        await kit.tearDown()
    }

    /// `no-cache` (even with max-age): every load shows the copy and sends a conditional request.
    @Test func noCacheIsRevalidatedOnEveryLoad() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/n.png", color: (1, 2, 3, 255), etag: "\"n1\"", headers: ["Cache-Control": "no-cache, max-age=3600"])
        let url = kit.server.url("/n.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        for _ in 0..<2 {
            let again = await kit.manager.results(url, deliveries: 2)
            #expect(again.first?.isRevalidating == true)
            #expect(again.first?.image?.firstPixel == [1, 2, 3, 255])
            #expect(again.last?.isNotModified == true)
        }
        let requests = kit.server.requests(to: "/n.png")
        #expect(requests.count == 3)
        #expect(requests.dropFirst().allSatisfy { $0.header("If-None-Match") == "\"n1\"" && $0.status == 304 })
        await kit.tearDown()
    }

    /// Stale: the copy first, then a conditional request; a 304 restarts its freshness (the next load
    /// asks nothing); once stale again, a changed body replaces it (delivered and stored).
    @Test func staleEntryIsShownThenRevalidated() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/s.png", color: (10, 20, 30, 255), etag: "\"s1\"", headers: ["Cache-Control": "max-age=100"])
        let url = kit.server.url("/s.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.clock.advance(200)

        let stale = await kit.manager.results(url, deliveries: 2)
        #expect(stale.first?.image?.firstPixel == [10, 20, 30, 255])
        #expect(stale.first?.isRevalidating == true)
        #expect(stale.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/s.png").last?.header("If-None-Match") == "\"s1\"")
        kit.manager.cache.waitUntilIdle()

        let refreshed = await kit.manager.results(url)
        #expect(refreshed.first?.isRevalidating == false)
        kit.manager.cache.clearMemory()
        #expect(await kit.manager.results(url).first?.isRevalidating == false)  // the disk entry was refreshed too
        #expect(kit.server.requests(to: "/s.png").count == 2)

        kit.clock.advance(200)
        kit.serve("/s.png", color: (200, 100, 50, 255), etag: "\"s2\"", headers: ["Cache-Control": "max-age=100"])
        let changed = await kit.manager.results(url, deliveries: 2)
        #expect(changed.map { $0.image?.firstPixel } == [[10, 20, 30, 255], [200, 100, 50, 255]])
        kit.manager.cache.waitUntilIdle()
        kit.manager.cache.clearMemory()
        let stored = await kit.manager.results(url)
        #expect(stored.first?.image?.firstPixel == [200, 100, 50, 255])
        #expect(stored.first?.isRevalidating == false)
        #expect(kit.server.requests(to: "/s.png").count == 3)
        await kit.tearDown()
    }

    /// An `Expires` in the past is stale at once — also in the memory tier.
    @Test func expiresInThePastIsStaleInMemoryToo() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        let past = HTTPDate.format(Date().addingTimeInterval(-3600))
        kit.serve("/x.png", color: (7, 7, 7, 255), etag: "\"x1\"", headers: ["Expires": past])
        let url = kit.server.url("/x.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        let again = await kit.manager.results(url, deliveries: 2)
        #expect(again.first?.cacheType == .memory)
        #expect(again.first?.isRevalidating == true)
        #expect(again.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/x.png").count == 2)
        await kit.tearDown()
    }

    /// Heuristic freshness: 10% of the Last-Modified age, then a conditional request (If-Modified-Since).
    @Test func heuristicFreshnessIsATenthOfTheLastModifiedAge() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        let modified = HTTPDate.format(kit.clock().addingTimeInterval(-1000))
        kit.serve("/h.png", color: (3, 3, 3, 255), lastModified: modified)
        let url = kit.server.url("/h.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.clock.advance(50)
        #expect(await kit.manager.results(url).first?.isRevalidating == false)
        #expect(kit.server.requests(to: "/h.png").count == 1)
        kit.clock.advance(60)
        let stale = await kit.manager.results(url, deliveries: 2)
        #expect(stale.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/h.png").last?.header("If-Modified-Since") == modified)
        await kit.tearDown()
    }

    /// Heuristic freshness is capped at one day, however old the Last-Modified.
    @Test func heuristicFreshnessIsCappedAtOneDay() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/d.png", color: (3, 3, 3, 255), lastModified: HTTPDate.format(kit.clock().addingTimeInterval(-100 * 86_400)))
        let url = kit.server.url("/d.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        kit.clock.advance(86_000)
        #expect(await kit.manager.results(url).first?.isRevalidating == false)
        kit.clock.advance(500)
        #expect(await kit.manager.results(url, deliveries: 2).last?.isNotModified == true)
        #expect(kit.server.requests(to: "/d.png").count == 2)
        await kit.tearDown()
    }

    /// `.refreshCached` (r / R / --refresh) revalidates even a fresh entry.
    @Test func refreshRevalidatesAFreshEntry() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/r.png", color: (1, 1, 1, 255), etag: "\"r1\"", headers: ["Cache-Control": "max-age=3600"])
        let url = kit.server.url("/r.png")
        _ = await kit.manager.results(url)
        kit.manager.cache.waitUntilIdle()
        let refreshed = await kit.manager.results(url, cache: .init(refreshCached: true), deliveries: 2)
        #expect(refreshed.first?.isRevalidating == true)
        #expect(refreshed.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/r.png").count == 2)
        await kit.tearDown()
    }

    /// A decoded thumbnail on disk follows its original's freshness: fresh → no request; stale → revalidated.
    @Test func thumbnailFollowsItsOriginalsFreshness() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        var noise = [UInt8](repeating: 255, count: 96 * 96 * 4)
        var seed: UInt32 = 12345
        for i in noise.indices where i % 4 != 3 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noise[i] = UInt8(truncatingIfNeeded: seed >> 24)
        }
        var stub = StubResponse.ok(TestPNG.make(width: 96, height: 96, rgba: noise), contentType: "image/png")
        stub.etag = "\"t1\""
        stub.headers["Cache-Control"] = "max-age=100"
        kit.server.route("/t.png", stub)
        let url = kit.server.url("/t.png")
        let box = PixelSize(width: 12, height: 12)
        _ = await kit.manager.results(url, targetSize: box)
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 2)  // the original and its thumbnail
        kit.manager.cache.clearMemory()
        let fresh = await kit.manager.results(url, targetSize: box)
        #expect(fresh.first?.cacheType == .disk)
        #expect(fresh.first?.isRevalidating == false)
        kit.manager.cache.clearMemory()
        kit.clock.advance(200)
        let stale = await kit.manager.results(url, targetSize: box, deliveries: 2)
        #expect(stale.first?.cacheType == .disk)
        #expect(stale.first?.isRevalidating == true)
        #expect(stale.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/t.png").count == 2)
        await kit.tearDown()
    }
}
