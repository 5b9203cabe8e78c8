import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

@Suite("ImageDownloadOperation: progress, progressive, decoding, events")
struct ImageDownloadOperationTests {
    @Test("progress is monotonic, per chunk, and ends at the full size")
    func progressMonotonic() async throws {
        let server = try await LoopbackServer.start()
        let size = 64 * 1024
        server.route("/p", DownloaderTestKit.slowImage(size: size, seconds: 0.25))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let progress = CallbackRecorder<(Int64, Int64)>()
        let done = ResultRecorder()
        let threadNames = CallbackRecorder<String>()
        let expectedPath = server.url("/p").path
        downloader.downloadImage(with: server.url("/p"), progress: { received, expected, url in
            #expect(url.path == expectedPath)
            threadNames.record(Thread.current.name ?? "")
            progress.record((received, expected))
        }) { threadNames.record(Thread.current.name ?? ""); done.record($0) }
        #expect(await done.wait(count: 1))
        let values = progress.all
        #expect(values.count >= 4)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 < $1.0 })
        #expect(values.last?.0 == Int64(size))
        #expect(values.allSatisfy { $0.1 == Int64(size) })
        #expect((try? done.all.first?.get().data.count) == size)
        #expect(!threadNames.all.contains("sdgallery.network"))
        await server.stop()
    }

    /// A server dripping small chunks (issue 30: a callback and a dispatch per chunk kept a core
    /// busy): progress comes at most every `progressInterval`, and its last call is the whole body.
    @Test func progressIsThrottledAndEndsAtTheLastByte() async throws {
        let server = try await LoopbackServer.start()
        var drip = StubResponse.ok(DownloaderTestKit.fakeImageBytes(3000), contentType: "image/fake")
        drip.chunkSize = 10
        drip.bytesPerSecond = 6000  // 300 chunks in half a second
        server.route("/drip", drip)
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let progress = CallbackRecorder<Int64>()
        let done = ResultRecorder()
        let started = ContinuousClock.now
        downloader.downloadImage(with: server.url("/drip"), progress: { received, _, _ in progress.record(received) }) { done.record($0) }
        #expect(await done.wait(count: 1))
        let elapsed = ContinuousClock.now - started
        let calls = progress.all
        #expect(calls.last == 3000)
        let allowed = Int(elapsed / .milliseconds(20)) + 2  // one per 20 ms, the first and the last
        #expect(calls.count <= allowed, "\(calls.count) progress calls in \(elapsed) (at most \(allowed))")
        #expect(calls.count >= 3)
        await server.stop()
    }

    @Test("progressive (fake decoder): ≥ 2 partial images, throttled, then the final one")
    func progressiveFake() async throws {
        let server = try await LoopbackServer.start()
        server.route("/prog", DownloaderTestKit.slowImage(size: 96 * 1024, seconds: 0.6))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let results = CallbackRecorder<(ContinuousClock.Instant, Result<DownloadResult, DownloadError>)>()
        downloader.downloadImage(with: ImageRequest(url: server.url("/prog"), delivery: .progressiveLoad)) { results.record((.now, $0)) }
        #expect(await results.wait { $0.contains { (try? $0.1.get().isFinished) == true } })
        let all = results.all.compactMap { entry -> (ContinuousClock.Instant, DownloadResult)? in
            guard case .success(let value) = entry.1 else { return nil }
            return (entry.0, value)
        }
        let partials = all.filter { !$0.1.isFinished }
        #expect(partials.count >= 2)
        // Throttled to one partial per 100 ms: never more than the transfer's duration allows
        // (however long a loaded machine makes it).
        if let first = all.first?.0, let last = all.last?.0 {
            let elapsed = last - first
            let allowed = Int(elapsed / .milliseconds(100)) + 2
            #expect(partials.count <= allowed, "\(partials.count) partials in \(elapsed)")
        }
        #expect(all.last?.1.isFinished == true)
        #expect(all.filter(\.1.isFinished).count == 1)
        #expect(partials.allSatisfy { $0.1.image != nil && $0.1.data.count <= 96 * 1024 })
        let widths = partials.compactMap { $0.1.image?.width }
        #expect(widths == widths.sorted())
        await server.stop()
    }

    /// Uses the real incremental JPEG decoder from the codecs work.
    @Test("progressive JPEG with the real codecs: ≥ 2 partials then the final image")
    func progressiveJPEGWithRealCodecs() async throws {
        let dir = try Fixtures.temporaryDirectory("progressive")
        let file = dir.appendingPathComponent("p.jpg")
        try await Blocking.run {
            let convert = Process()
            convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
            convert.arguments = ["-size", "640x480", "plasma:fractal", "-interlace", "JPEG", "-quality", "85", file.path]
            try convert.run()
            convert.waitUntilExit()
        }
        let jpeg = try Data(contentsOf: file)
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(jpeg, contentType: "image/jpeg")
        stub.bytesPerSecond = max(jpeg.count * 2, 50_000)  // about half a second
        server.route("/p.jpg", stub)
        let downloader = ImageDownloader()  // real ImageCoders
        let results = ResultRecorder()
        let request = ImageRequest(url: server.url("/p.jpg"), targetSize: PixelSize(width: 320, height: 240), delivery: .progressiveLoad)
        downloader.downloadImage(with: request) { results.record($0) }
        #expect(await results.wait { $0.contains { (try? $0.get().isFinished) != false } })
        for case .failure(let error) in results.all { Issue.record("download failed: \(error)") }
        let values = results.all.compactMap { try? $0.get() }
        #expect(values.filter { !$0.isFinished && $0.image != nil }.count >= 2)
        let final = try #require(values.last)
        #expect(final.isFinished)
        #expect(final.image?.width == 320)
        await server.stop()
    }

    @Test("progressive: only bodies that render partially (JPEG, PNG) are copied into the incremental decoder")
    func progressiveFeedsOnlyPartialFormats() async throws {
        let server = try await LoopbackServer.start()
        var page = StubResponse.ok(Data(("<!DOCTYPE html><html>" + String(repeating: "x", count: 300_000)).utf8), contentType: "text/html")
        page.chunkSize = 16 * 1024
        server.route("/page", page)
        let png = TestPNG.solid(width: 120, height: 80, rgba: (1, 2, 3, 255))
        var slowPNG = StubResponse.ok(png, contentType: "image/png")
        slowPNG.chunkSize = 4096
        slowPNG.bytesPerSecond = png.count * 4
        server.route("/png", slowPNG)
        for (path, expectFed) in [("/page", false), ("/png", true)] {
            let fed = FedBytes()
            var config = ImageDownloaderConfig()
            config.decoding.makeIncrementalDecoder = { options in CountingDecoder(ImageCoders.makeIncrementalDecoder(options: options), fed) }
            let downloader = ImageDownloader(config: config)
            let results = ResultRecorder()
            downloader.downloadImage(with: ImageRequest(url: server.url(path), delivery: .progressiveLoad)) { results.record($0) }
            #expect(await results.wait(timeout: .seconds(30)) { $0.contains { (try? $0.get().isFinished) != false } })
            let last = try #require(results.all.last)
            if expectFed {
                #expect((try? last.get().image?.width) == 120)
                #expect(fed.count == png.count)
            } else {
                guard case .failure(.decodeFailed(_, .notAnImage(kind: "text/html"))) = last else { Issue.record("\(last)"); continue }
                #expect(fed.count == 0, "\(fed.count) bytes of HTML went to the incremental decoder")
            }
        }
        await server.stop()
    }

    @Test("an HTML body becomes decodeFailed(notAnImage) with the real coders")
    func htmlDecodeFailed() async throws {
        let server = try await LoopbackServer.start()
        server.route("/page", .ok(Data("<!DOCTYPE html><html><body>hi</body></html>".utf8), contentType: "text/html"))
        let downloader = ImageDownloader()
        let result: Result<DownloadResult, DownloadError>
        do { result = .success(try await downloader.image(for: server.url("/page"))) } catch let error as DownloadError {
            result = .failure(error)
        }
        guard case .failure(.decodeFailed(_, .notAnImage)) = result else { Issue.record("\(result)"); return }
        await server.stop()
    }

    @Test("handlers with different target sizes each get their own decode options")
    func perHandlerDecodeOptions() async throws {
        let server = try await LoopbackServer.start()
        server.route("/d", DownloaderTestKit.slowImage(size: 8 * 1024, seconds: 0.1))
        let seen = CallbackRecorder<PixelSize?>()
        var config = DownloaderTestKit.config()
        config.decoding = ImageDecoding(
            decode: { _, options in
                seen.record(options.targetSize)
                return Image(width: 1, height: 1, pixels: [0, 0, 0, 0])
            },
            makeIncrementalDecoder: { _ in FakeIncrementalDecoder() })
        let downloader = ImageDownloader(config: config)
        let done = ResultRecorder()
        let small = PixelSize(width: 10, height: 10), large = PixelSize(width: 100, height: 100)
        for size in [small, large, small] {
            downloader.downloadImage(with: ImageRequest(url: server.url("/d"), targetSize: size)) { done.record($0) }
        }
        #expect(await done.wait(count: 3))
        #expect(Set(seen.all.compactMap { $0 }) == [small, large])
        #expect(seen.all.count == 2)
        #expect(server.requests.count == 1)
        _ = try await downloader.image(for: ImageRequest(url: server.url("/d"), delivery: .scaleDownLargeImages))
        #expect(seen.all.last == PixelSize(width: 4096, height: 4096))
        await server.stop()
    }

    @Test("events: started, receivedResponse, stopped, finished — and stopped on failure")
    func events() async throws {
        let server = try await LoopbackServer.start()
        server.route("/ok", .ok(DownloaderTestKit.fakeImageBytes(100)))
        server.route("/missing", .status(404))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let events = CallbackRecorder<DownloadEvent>()
        let observation = downloader.events.addObserver { events.record($0) }
        _ = try await downloader.image(for: server.url("/ok"))
        _ = try? await downloader.image(for: server.url("/missing"))
        #expect(await events.wait(count: 7))
        let ok = server.url("/ok"), missing = server.url("/missing")
        #expect(events.all == [
            .started(ok), .receivedResponse(ok, statusCode: 200), .stopped(ok), .finished(ok),
            .started(missing), .receivedResponse(missing, statusCode: 404), .stopped(missing),
        ])
        observation.cancel()
        let later = CallbackRecorder<DownloadEvent>()
        let second = downloader.events.addObserver { later.record($0) }
        _ = try await downloader.image(for: server.url("/ok"))
        #expect(await later.wait(count: 4))
        #expect(later.all == [.started(ok), .receivedResponse(ok, statusCode: 200), .stopped(ok), .finished(ok)])
        #expect(events.all.count == 7)  // the cancelled observer got none of them
        second.cancel()
        await server.stop()
    }

    @Test("a custom operation type is used for every new URL")
    func customOperationType() async throws {
        var config = DownloaderTestKit.config(maxConcurrent: 1)
        config.operationType = ScriptedOperation.self
        let downloader = ImageDownloader(config: config)
        let done = ResultRecorder()
        let url = URL(string: "http://example.invalid/a.png")!
        let t1 = downloader.downloadImage(with: url) { done.record($0) }
        let t2 = downloader.downloadImage(with: url) { done.record($0) }
        let operation = try #require(t1?.operation as? ScriptedOperation)
        #expect(t2?.operation === operation)
        #expect(operation.started)
        #expect(downloader.currentDownloadCount == 1)
        operation.succeed()
        #expect(await done.wait(count: 2))
        #expect(downloader.currentDownloadCount == 0)
    }
}

/// Bytes handed to incremental decoders, across threads.
final class FedBytes: Sendable {
    private let total = Locked(0)
    func add(_ count: Int) { total.withLock { $0 += count } }
    var count: Int { total.withLock { $0 } }
}

/// Wraps a real incremental decoder and counts the bytes it is fed.
final class CountingDecoder: IncrementalDecoding {
    let inner: any IncrementalDecoding
    let fed: FedBytes
    init(_ inner: any IncrementalDecoding, _ fed: FedBytes) {
        self.inner = inner
        self.fed = fed
    }
    func append(_ chunk: Data) {
        fed.add(chunk.count)
        inner.append(chunk)
    }
    func partialImage() -> Image? { inner.partialImage() }
    func finish() throws -> Image { try inner.finish() }
}
