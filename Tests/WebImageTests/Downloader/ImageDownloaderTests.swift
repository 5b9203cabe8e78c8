import Foundation
import Testing
import TestSupport
@testable import WebImage

@Suite("ImageDownloader: coalescing, cancellation, order, priority")
struct ImageDownloaderTests {
    @Test("20 concurrent requests for one URL → 1 server request, 20 completions")
    func coalescing() async throws {
        let server = try await LoopbackServer.start()
        server.route("/a", DownloaderTestKit.slowImage(size: 32 * 1024, seconds: 0.3))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let recorder = ResultRecorder()
        for _ in 0..<20 {
            downloader.downloadImage(with: server.url("/a")) { recorder.record($0) }
        }
        #expect(await recorder.wait(count: 20))
        #expect(recorder.all.count == 20)
        #expect(recorder.all.allSatisfy { (try? $0.get().image) != nil })
        #expect(server.requests(to: "/a").count == 1)
        await server.stop()
    }

    @Test("cancelling 1 of 2 handlers: the other completes, the cancelled one is never called")
    func cancelOneOfTwo() async throws {
        let server = try await LoopbackServer.start()
        server.route("/a", DownloaderTestKit.slowImage(size: 32 * 1024, seconds: 0.3))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let cancelled = ResultRecorder(), kept = ResultRecorder()
        let progressOfCancelled = CallbackRecorder<Int64>()
        let first = downloader.downloadImage(with: server.url("/a"), progress: { r, _, _ in progressOfCancelled.record(r) }) {
            cancelled.record($0)
        }
        downloader.downloadImage(with: server.url("/a")) { kept.record($0) }
        first?.cancel()
        let countAtCancel = progressOfCancelled.all.count
        #expect(await kept.wait(count: 1))
        #expect(await downloader.untilIdle())
        #expect(cancelled.all.isEmpty)
        #expect(progressOfCancelled.all.count == countAtCancel)
        #expect((try? kept.all.first?.get().isFinished) == true)
        await server.stop()
    }

    @Test("cancelling every handler aborts the transfer: the server sees the client leave early")
    func cancelAllHandlersAbortsTransfer() async throws {
        let server = try await LoopbackServer.start()
        // Far longer than any wait below: under a loaded parallel run the body must not be able to
        // finish (into the kernel's loopback buffers) before the cancel closes the connection.
        server.route("/a", DownloaderTestKit.slowImage(size: 256 * 1024, seconds: 20))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let recorder = ResultRecorder()
        let t1 = downloader.downloadImage(with: server.url("/a")) { recorder.record($0) }
        let t2 = downloader.downloadImage(with: server.url("/a")) { recorder.record($0) }
        #expect(await server.waitUntil { $0.first?.bytesSent ?? 0 > 0 })
        t1?.cancel()
        t2?.cancel()
        #expect(await server.waitUntil(timeout: .seconds(30)) { $0.first?.clientDisconnectedEarly == true })
        #expect(server.requests.first?.finished == false)
        #expect(downloader.currentDownloadCount == 0)
        #expect(recorder.all.isEmpty)
        await server.stop()
    }

    @Test("maxConcurrent 1: FIFO and LIFO orders as the server sees them", arguments: [
        ImageDownloaderConfig.ExecutionOrder.fifo, .lifo,
    ])
    func executionOrder(_ order: ImageDownloaderConfig.ExecutionOrder) async throws {
        let server = try await LoopbackServer.start()
        let paths = (0..<5).map { "/o\($0)" }
        for path in paths { server.route(path, .ok(DownloaderTestKit.fakeImageBytes(100))) }
        var config = DownloaderTestKit.config(maxConcurrent: 1)
        config.executionOrder = order
        let downloader = ImageDownloader(config: config)
        downloader.isSuspended = true
        let recorder = ResultRecorder()
        for path in paths { downloader.downloadImage(with: server.url(path)) { recorder.record($0) } }
        // Held: all five queued, none holding a slot (no transfer, so no request, can start).
        #expect(downloader.queuedDownloadCount == 5 && downloader.currentDownloadCount == 0)
        #expect(server.requests.isEmpty)
        downloader.isSuspended = false
        #expect(await recorder.wait(count: 5))
        let seen = server.requests.map(\.path)
        #expect(seen == (order == .fifo ? paths : paths.reversed()))
        await server.stop()
    }

    @Test("a high-priority request queued last starts first")
    func highPriorityFirst() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<5 { server.route("/p\(i)", .ok(DownloaderTestKit.fakeImageBytes(100))) }
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 1))
        downloader.isSuspended = true
        let recorder = ResultRecorder()
        for i in 0..<4 { downloader.downloadImage(with: server.url("/p\(i)")) { recorder.record($0) } }
        downloader.downloadImage(with: ImageRequest(url: server.url("/p4"), priority: .high)) { recorder.record($0) }
        downloader.isSuspended = false
        #expect(await recorder.wait(count: 5))
        #expect(server.requests.map(\.path) == ["/p4", "/p0", "/p1", "/p2", "/p3"])
        await server.stop()
    }

    @Test("queue order: a newer screen's requests first, each screen in its own order, LIFO only between screens")
    func queueOrderBetweenAndWithinScreens() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<6 { server.route("/q\(i)", .ok(DownloaderTestKit.fakeImageBytes(100))) }
        var config = DownloaderTestKit.config(maxConcurrent: 1)
        config.executionOrder = .lifo
        let downloader = ImageDownloader(config: config)
        downloader.isSuspended = true
        let recorder = ResultRecorder()
        // Screen 1 (order 100, 99, 98) then screen 2 (order 200, 199, 198), each in reading order.
        for (i, order) in [(0, 100), (1, 99), (2, 98), (3, 200), (4, 199), (5, 198)] {
            downloader.downloadImage(with: ImageRequest(url: server.url("/q\(i)"), queueOrder: order)) { recorder.record($0) }
        }
        downloader.isSuspended = false
        #expect(await recorder.wait(count: 6))
        #expect(server.requests.map(\.path) == ["/q3", "/q4", "/q5", "/q0", "/q1", "/q2"])
        await server.stop()
    }

    @Test("raising a queued token's priority moves it; lowering moves it back")
    func livePriority() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<5 { server.route("/q\(i)", .ok(DownloaderTestKit.fakeImageBytes(100))) }
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 1))
        downloader.isSuspended = true
        let recorder = ResultRecorder()
        var tokens: [DownloadToken] = []
        for i in 0..<5 {
            if let token = downloader.downloadImage(with: server.url("/q\(i)"), completed: { recorder.record($0) }) { tokens.append(token) }
        }
        tokens[3].priority = .veryHigh
        tokens[0].priority = .low
        #expect(tokens[3].priority == .veryHigh)
        downloader.isSuspended = false
        #expect(await recorder.wait(count: 5))
        #expect(server.requests.map(\.path) == ["/q3", "/q1", "/q2", "/q4", "/q0"])
        await server.stop()
    }

    @Test("suspend holds new transfers; resume starts them")
    func suspendResume() async throws {
        let server = try await LoopbackServer.start()
        server.route("/s", .ok(DownloaderTestKit.fakeImageBytes(100)))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        downloader.isSuspended = true
        #expect(downloader.isSuspended)
        let recorder = ResultRecorder()
        downloader.downloadImage(with: server.url("/s")) { recorder.record($0) }
        #expect(downloader.queuedDownloadCount == 1)  // held in the queue: no transfer started
        #expect(server.requests.isEmpty)
        #expect(recorder.all.isEmpty)
        #expect(downloader.currentDownloadCount == 0)
        downloader.isSuspended = false
        #expect(await recorder.wait(count: 1))
        #expect(server.requests.count == 1)
        await server.stop()
    }

    @Test("maxConcurrentDownloads bounds running transfers; currentDownloadCount reports them")
    func concurrencyLimit() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<4 { server.route("/c\(i)", DownloaderTestKit.slowImage(size: 16 * 1024, seconds: 0.4)) }
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        #expect(downloader.maxConcurrentDownloads == 2)
        let recorder = ResultRecorder()
        for i in 0..<4 { downloader.downloadImage(with: server.url("/c\(i)")) { recorder.record($0) } }
        #expect(downloader.currentDownloadCount == 2)
        #expect(await server.waitUntil { $0.count >= 2 })
        #expect(downloader.queuedDownloadCount == 2)  // the other two wait for a slot
        #expect(server.requests.count == 2)
        #expect(await recorder.wait(count: 4))
        #expect(downloader.currentDownloadCount == 0)
        await server.stop()
    }

    /// Issue 30: six stalled URLs on one host held all six slots, and twelve photos on another host
    /// stayed "waiting". One host runs at most `maxDownloadsPerHost` transfers; the others' start past
    /// its waiting ones. (127.0.0.1 and localhost are two hosts of one loopback server.)
    @Test("a stalled host holds at most its per-host slots: another host's images still load")
    func perHostLimitKeepsOtherHostsLoading() async throws {
        let server = try await LoopbackServer.start()
        var stall = StubResponse.ok(DownloaderTestKit.fakeImageBytes(64 * 1024), contentType: "image/fake")
        stall.fault = .stallAfter(bytes: 100)
        stall.stallLimit = .seconds(30)
        for i in 0..<8 { server.route("/stall\(i)", stall) }
        for i in 0..<4 { server.route("/photo\(i)", .ok(DownloaderTestKit.fakeImageBytes(4096, seed: UInt8(i)), contentType: "image/fake")) }
        var config = DownloaderTestKit.config(maxConcurrent: 6)
        config.maxDownloadsPerHost = 3
        let downloader = ImageDownloader(config: config)
        let stalled = ResultRecorder(), photos = ResultRecorder()
        var tokens: [DownloadToken] = []
        for i in 0..<8 { tokens += [downloader.downloadImage(with: server.url("/stall\(i)")) { stalled.record($0) }].compactMap { $0 } }
        #expect(await server.waitUntil { $0.count >= 3 })
        #expect(downloader.currentDownloadCount == 3 && downloader.queuedDownloadCount == 5)
        let other = try #require(URL(string: server.url("/photo0").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")))
        let base = other.deletingLastPathComponent()
        for i in 0..<4 { downloader.downloadImage(with: base.appendingPathComponent("photo\(i)")) { photos.record($0) } }
        #expect(await photos.wait(count: 4, timeout: .seconds(10)), "the other host's images waited behind the stalled host")
        #expect(photos.all.allSatisfy { if case .success = $0 { true } else { false } })
        #expect(stalled.all.isEmpty)
        #expect(ImageDownloaderConfig().maxDownloadsPerHost == 6 && ImageDownloaderConfig().maxConcurrentDownloads == 12)
        for token in tokens { token.cancel() }
        await server.stop()
    }

    @Test("a finished transfer keeps its slot until its decode is done: bodies cannot pile up before the decoders")
    func slotHeldUntilDecoded() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<2 { server.route("/d\(i)", .ok(DownloaderTestKit.fakeImageBytes(4096, seed: UInt8(i)), contentType: "image/fake")) }
        var config = DownloaderTestKit.config(maxConcurrent: 1)
        let decodes = CallbackRecorder<String>()
        config.decoding = ImageDecoding(
            decode: { data, options in
                decodes.record("start")
                Thread.sleep(forTimeInterval: 0.4)
                decodes.record("end")
                return try DownloaderTestKit.fakeDecoding.decode(data, options)
            },
            makeIncrementalDecoder: DownloaderTestKit.fakeDecoding.makeIncrementalDecoder)
        let downloader = ImageDownloader(config: config)
        let recorder = ResultRecorder()
        for i in 0..<2 { downloader.downloadImage(with: server.url("/d\(i)")) { recorder.record($0) } }
        #expect(await decodes.wait(count: 1))
        // The first body is decoding (0.4 s): its slot is still taken, so the second request waits in the queue.
        #expect(downloader.currentDownloadCount == 1 && downloader.queuedDownloadCount == 1)
        #expect(server.requests.count == 1)
        #expect(await recorder.wait(count: 2))
        #expect(server.requests.count == 2)
        #expect(decodes.all == ["start", "end", "start", "end"])
        #expect(downloader.currentDownloadCount == 0)
        await server.stop()
    }

    @Test("cancelAllDownloads: running and queued handlers get .cancelled, transfers stop")
    func cancelAll() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<3 { server.route("/x\(i)", DownloaderTestKit.slowImage(size: 128 * 1024, seconds: 20)) }
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let recorder = ResultRecorder()
        for i in 0..<3 { downloader.downloadImage(with: server.url("/x\(i)")) { recorder.record($0) } }
        #expect(await server.waitUntil { $0.count == 2 && $0.allSatisfy { $0.bytesSent > 0 } })
        downloader.cancelAllDownloads()
        #expect(await recorder.wait(count: 3, timeout: .seconds(20)))
        for result in recorder.all {
            guard case .failure(.cancelled) = result else { Issue.record("expected .cancelled, got \(result)"); continue }
        }
        #expect(await server.waitUntil(timeout: .seconds(30)) { $0.filter(\.clientDisconnectedEarly).count == 2 })
        #expect(server.requests.count == 2)
        #expect(downloader.currentDownloadCount == 0)
        await server.stop()
    }

    @Test("a finished operation is never reused: a later request makes a new transfer")
    func finishedNotReused() async throws {
        let server = try await LoopbackServer.start()
        server.route("/r", .ok(DownloaderTestKit.fakeImageBytes(100)))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let first = try await downloader.image(for: server.url("/r"))
        let second = try await downloader.image(for: server.url("/r"))
        #expect(first.isFinished && second.isFinished)
        #expect(server.requests.count == 2)
        await server.stop()
    }
}
