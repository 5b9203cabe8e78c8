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
    /// until the partial body is kept. Returns its size. The body arrives at 128 KB/s (a 4 KB chunk
    /// every 32 ms, each reported: progress is throttled to 20 ms) and stops after three quarters
    /// (the connection stays open), so the cancel always lands mid-body however late it comes.
    /// (At 32 KB/s without the stop, reaching half took a second a test.)
    static func cancelHalfway(_ kit: ManagerTestKit, _ path: String, body: Data, etag: String) async -> Int {
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = etag
        stub.bytesPerSecond = 128_000
        stub.fault = .stallAfter(bytes: body.count * 3 / 4)
        kit.server.route(path, stub)
        let url = kit.server.url(path)
        let progress = CallbackRecorder<Int64>()
        let operation = kit.manager.loadImage(with: url) { event in
            if case .progress(let received, _) = event { progress.record(received) }
        }
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
        kit.manager.loadImage(with: ImageRequest(url: kit.server.url("/prog.png"), delivery: .progressiveLoad)) { event in
            if case .progress(let received, _) = event { progress.record(received) }
            results.recordLoad(event)
        }
        #expect(await results.wait { $0.contains { $0.isTerminal } })
        #expect(progress.all.allSatisfy { $0 > Int64(kept) })
        let partials = results.all.filter { !$0.isTerminal }.compactMap(\.image)
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

    /// How a broken server answers a `Range` request: a 206 that does not continue the kept bytes.
    /// Issue 30 adds: another ETag, none, a body shorter or longer than its Content-Range (said by its
    /// Content-Length, or chunked and found at the end): each was spliced to the kept bytes and cached.
    enum Mismatch: String, CaseIterable, Sendable {
        case wrongStart, wrongTotal, noContentRange, encoded, otherETag, noETag, shortBody, longBody, shortChunked
    }

    /// A 206 that does not continue the partial is abandoned: the same request goes out again
    /// without `Range`, and the image is the full body (the handler never sees the bad 206).
    @Test(arguments: Mismatch.allCases)
    func aNonMatching206RestartsWithoutRange(_ mismatch: Mismatch) async throws {
        let kit = try await ManagerTestKit.make()
        let body = TestPNG.solid(width: Self.side, height: Self.side, rgba: (33, 66, 99, 255))
        let kept = await Self.cancelHalfway(kit, "/bad206.png", body: body, etag: "\"b1\"")
        #expect(kept > 0 && kept < body.count)

        kit.server.route("/bad206.png") { request in
            guard request.header("Range") != nil else {
                var whole = StubResponse.ok(body, contentType: "image/png")
                whole.etag = "\"b1\""
                return whole
            }
            var tail = body.subdata(in: kept..<body.count)
            var headers = ["Content-Type": "image/png", "ETag": "\"b1\""]
            switch mismatch {
            case .wrongStart: headers["Content-Range"] = "bytes \(kept + 1)-\(body.count - 1)/\(body.count)"
            case .wrongTotal: headers["Content-Range"] = "bytes \(kept)-\(body.count - 1)/\(body.count + 7)"
            case .noContentRange: break
            case .encoded:
                headers["Content-Range"] = "bytes \(kept)-\(body.count - 1)/\(body.count)"
                headers["Content-Encoding"] = "gzip"
                tail = TestGzip.stored(tail)
            case .otherETag, .noETag, .shortBody, .longBody, .shortChunked:
                headers["Content-Range"] = "bytes \(kept)-\(body.count - 1)/\(body.count)"
                if mismatch == .otherETag { headers["ETag"] = "\"b2\"" }
                if mismatch == .noETag { headers["ETag"] = nil }
                if mismatch == .shortBody || mismatch == .shortChunked { tail = tail.prefix(tail.count / 2) }
                if mismatch == .longBody { tail += Data(repeating: 0x42, count: 100) }
            }
            var partial = StubResponse(status: 206, headers: headers, body: tail)
            partial.supportsRange = false
            partial.chunked = mismatch == .shortChunked
            return partial
        }
        let before = kit.server.requests(to: "/bad206.png").count
        let result = await kit.manager.results(kit.server.url("/bad206.png"))
        #expect(result.count == 1)
        #expect(result.first?.data == body)
        #expect(result.first?.image?.firstPixel == [33, 66, 99, 255])
        let requests = kit.server.requests(to: "/bad206.png").dropFirst(before)
        #expect(requests.count == 2)
        #expect(requests.first?.header("Range") == "bytes=\(kept)-")
        #expect(requests.last?.header("Range") == nil)
        #expect(requests.last?.header("If-Range") == nil)
        #expect(requests.last?.status == 200)
        #expect(kit.manager.downloader.statistics.snapshot.retries == 0)
        #expect(kit.manager.downloader.partials.urls.isEmpty)
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
