import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// A cancelled transfer keeps its partial body; the next load of the URL continues it with
/// `Range` + `If-Range` against the real loopback server (which honours both).
@Suite struct ResumableDownloadTests {
    static let side = 128

    /// Starts a throttled load of `path`, cancels it once about half the body arrived, and waits
    /// until the partial body is kept. Returns its size.
    static func cancelHalfway(_ kit: ManagerTestKit, _ path: String, body: Data, etag: String) async -> Int {
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = etag
        stub.bytesPerSecond = 32_000
        kit.server.route(path, stub)
        let url = kit.server.url(path)
        let progress = CallbackRecorder<Int64>()
        let operation = kit.manager.loadImage(with: url, progress: { received, _, _ in progress.record(received) }) { _ in }
        _ = await progress.wait { $0.contains { $0 >= Int64(body.count / 2) } }
        operation.cancel()
        let deadline = ContinuousClock.now + .seconds(15)
        while kit.manager.downloader.partials.urls != [url], ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return kit.manager.downloader.partials.bytes
    }

    @Test func aTransferCancelledAtHalfResumesWithRangeAndGivesTheSameBytes() async throws {
        let kit = try await ManagerTestKit.make()
        let body = TestPNG.solid(width: Self.side, height: Self.side, rgba: (12, 34, 56, 255))
        let kept = await Self.cancelHalfway(kit, "/half.png", body: body, etag: "\"h1\"")
        #expect(kept >= body.count / 2 && kept < body.count)

        var stub = StubResponse.ok(body, contentType: "image/png")  // now at full speed, same representation
        stub.etag = "\"h1\""
        kit.server.route("/half.png", stub)
        let result = await kit.manager.results(kit.server.url("/half.png"))
        #expect(result.first?.data == body)
        #expect(result.first?.image?.size == PixelSize(width: Self.side, height: Self.side))
        #expect(result.first?.image?.firstPixel == [12, 34, 56, 255])
        let resumed = kit.server.requests(to: "/half.png").last
        #expect(resumed?.header("Range") == "bytes=\(kept)-")
        #expect(resumed?.header("If-Range") == "\"h1\"")
        #expect(resumed?.status == 206)
        #expect(kit.manager.downloader.partials.urls.isEmpty)
        // Stored whole: a disk hit decodes the same bytes.
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.disk?.entry(forKey: kit.manager.cacheKey(for: kit.server.url("/half.png")))?.data == body)
        await kit.tearDown()
    }

    /// A resumed progressive load counts progress from the kept bytes and its partial images already
    /// show the rows those bytes hold (the incremental decoder saw every byte from the start).
    @Test func aResumedProgressiveLoadContinuesTheRender() async throws {
        let kit = try await ManagerTestKit.make()
        let body = TestPNG.solid(width: Self.side, height: Self.side, rgba: (90, 80, 70, 255))
        let kept = await Self.cancelHalfway(kit, "/prog.png", body: body, etag: "\"p1\"")
        #expect(kept >= body.count / 2)

        let progress = CallbackRecorder<Int64>()
        let results = LoadRecorder()
        kit.manager.loadImage(with: kit.server.url("/prog.png"), options: .progressiveLoad,
                              progress: { received, _, _ in progress.record(received) }) { results.record($0) }
        #expect(await results.wait { $0.contains { $0.isFinished } })
        #expect(progress.all.allSatisfy { $0 > Int64(kept) })
        let partials = results.all.filter { !$0.isFinished }.compactMap(\.image)
        #expect(!partials.isEmpty)
        #expect(partials.first.map { $0.pixel(x: 0, y: Self.side / 4) == (90, 80, 70, 255) } == true)
        #expect(results.all.last?.data == body)
        #expect(kit.server.requests(to: "/prog.png").last?.status == 206)
        await kit.tearDown()
    }

    @Test func aChangedETagRestartsFromTheStart() async throws {
        let kit = try await ManagerTestKit.make()
        let old = TestPNG.solid(width: Self.side, height: Self.side, rgba: (1, 1, 1, 255))
        let kept = await Self.cancelHalfway(kit, "/changed.png", body: old, etag: "\"c1\"")
        #expect(kept > 0)

        let new = TestPNG.solid(width: Self.side, height: Self.side, rgba: (200, 100, 50, 255))
        var stub = StubResponse.ok(new, contentType: "image/png")
        stub.etag = "\"c2\""
        kit.server.route("/changed.png", stub)
        let result = await kit.manager.results(kit.server.url("/changed.png"))
        #expect(result.first?.data == new)
        #expect(result.first?.image?.firstPixel == [200, 100, 50, 255])
        let restarted = kit.server.requests(to: "/changed.png").last
        #expect(restarted?.header("If-Range") == "\"c1\"")
        #expect(restarted?.status == 200)
        await kit.tearDown()
    }

    @Test func thePartialBudgetDropsTheOldestFirst() throws {
        func partial(_ count: Int, etag: String = "\"e\"", encoding: String? = nil) -> PartialDownload? {
            var headers = ["etag": etag, "content-length": "1000"]
            headers["content-encoding"] = encoding
            return PartialDownload(data: Data(repeating: 7, count: count),
                                   response: DownloadResponse(statusCode: 200, headers: headers, url: URL(string: "http://x/")!))
        }
        let store = PartialDownloadStore(budget: 100)
        let a = URL(string: "http://127.0.0.1/a")!, b = URL(string: "http://127.0.0.1/b")!, c = URL(string: "http://127.0.0.1/c")!
        store.keep(try #require(partial(60)), for: a)
        store.keep(try #require(partial(30)), for: b)
        store.keep(try #require(partial(30)), for: c)
        #expect(store.urls == [b, c])
        #expect(store.bytes == 60)
        #expect(store.take(b)?.data.count == 30)
        #expect(store.urls == [c])
        // Only what can be continued is kept: a weak validator, an encoded body, a whole body are not.
        #expect(partial(10, etag: "W/\"e\"") == nil)
        #expect(partial(10, encoding: "gzip") == nil)
        #expect(partial(1000) == nil)
    }
}
