import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

/// The request options that let `s` and encode-ahead go through the manager like every load.
@Suite struct ImageRequestOptionsTests {
    /// Encode-ahead asks the memory cache through the manager: the answer comes before `loadImage`
    /// returns, and a miss neither reads the disk nor sends a request.
    @Test func memoryCacheOnlyAnswersInlineAndNeverFetches() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/m.png", color: (5, 6, 7, 255), size: 32)
        let url = kit.server.url("/m.png")
        let box = PixelSize(width: 8, height: 8)
        let request = ImageRequest(url: url, targetSize: box, cache: .init(read: .memoryOnly))
        let before = Locked<ImageLoadEvent?>(nil)
        kit.manager.loadImage(with: request) { result in before.withLock { $0 = result } }
        let miss = try #require(before.withLock { $0 })
        #expect(miss.image == nil)
        #expect(miss.error.map { if case .notCached = $0 { true } else { false } } == true)
        #expect(kit.server.requests(to: "/m.png").isEmpty)

        _ = await kit.manager.results(url, targetSize: box)
        let after = Locked<ImageLoadEvent?>(nil)
        kit.manager.loadImage(with: request) { result in after.withLock { $0 = result } }
        let hit = try #require(after.withLock { $0 })
        #expect(hit.cacheType == .memory && hit.image?.size == box && hit.isTerminal && !hit.isRevalidating)
        #expect(kit.server.requests(to: "/m.png").count == 1)
        await kit.tearDown()
    }

    /// `s` asks for the original file: the disk cache's entry when there is one (no request), else a
    /// download of the whole body, which the cache then keeps.
    @Test func originalDataIsTheWholeFileFromTheDiskCacheOrTheNetwork() async throws {
        let kit = try await ManagerTestKit.make()
        let bytes = TestPNG.solid(width: 40, height: 30, rgba: (9, 9, 9, 255))
        var stub = StubResponse.ok(bytes, contentType: "image/png")
        stub.headers["Cache-Control"] = "max-age=3600"  // fresh: the cell's disk hit asks nothing either
        kit.server.route("/o.png", stub)
        let url = kit.server.url("/o.png")

        let downloaded = try #require(try await kit.manager.original(url)?.get())
        #expect(downloaded.data == bytes && downloaded.cacheType == .none)
        #expect(kit.server.requests(to: "/o.png").count == 1)
        kit.manager.cache.waitUntilIdle()

        _ = await kit.manager.results(url, targetSize: PixelSize(width: 8, height: 8))  // a cell's load: a disk hit
        let cached = try #require(try await kit.manager.original(url)?.get())
        #expect(cached.data == bytes)
        #expect(cached.cacheType == .disk)
        #expect(kit.server.requests(to: "/o.png").count == 1, "the original was downloaded again")
        await kit.tearDown()
    }
}
