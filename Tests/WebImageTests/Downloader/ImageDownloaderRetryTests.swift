import Foundation
import Locking
import Testing
import TestSupport
@testable import WebImage

/// One automatic retry for transient failures (reset, 502/503/504), `Retry-After` honoured up to a
/// cap, never for 4xx; counted in the statistics. Against the loopback server.
@Suite struct ImageDownloaderRetryTests {
    /// A route whose first answer is `first` and every later one a good body.
    static func flaky(_ server: LoopbackServer, _ path: String, first: StubResponse) {
        let count = Locked(0)
        server.route(path) { _ in
            let n = count.withLock { $0 += 1; return $0 }
            return n == 1 ? first : .ok(DownloaderTestKit.fakeImageBytes(2000))
        }
    }

    static func download(_ downloader: ImageDownloader, _ url: URL) async -> Result<DownloadResult, DownloadError>? {
        let recorder = ResultRecorder()
        downloader.downloadImage(with: url) { recorder.record($0) }
        _ = await recorder.wait(timeout: .seconds(30)) { values in
            values.contains { if case .success(let r) = $0 { return r.isFinished } else { return true } }
        }
        return recorder.finals.first
    }

    @Test func a503WithRetryAfterIsRetriedOnceAfterTheWaitAndSucceeds() async throws {
        let server = try await LoopbackServer.start()
        Self.flaky(server, "/busy", first: StubResponse(status: 503, headers: ["Retry-After": "1"], body: Data("busy".utf8)))
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let result = await Self.download(downloader, server.url("/busy"))
        guard case .success(let download)? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(download.isFinished)
        let requests = server.requests(to: "/busy")
        #expect(requests.count == 2)
        if requests.count == 2 { #expect(requests[1].receivedAt - requests[0].receivedAt >= .milliseconds(900), "Retry-After not waited for") }
        #expect(downloader.statistics.snapshot.retries == 1)
        await server.stop()
    }

    @Test func aResetConnectionIsRetriedOnce() async throws {
        let server = try await LoopbackServer.start()
        var reset = StubResponse.ok(DownloaderTestKit.fakeImageBytes(20_000))
        reset.fault = .resetAfter(bytes: 1000)
        Self.flaky(server, "/reset", first: reset)
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let result = await Self.download(downloader, server.url("/reset"))
        if case .success = result {} else { Issue.record("\(String(describing: result))") }
        #expect(server.requests(to: "/reset").count == 2)
        await server.stop()
    }

    @Test(arguments: [404, 500, 403])
    func otherStatusesAreNotRetried(code: Int) async throws {
        let server = try await LoopbackServer.start()
        server.route("/e", .status(code, body: "no"))
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let result = await Self.download(downloader, server.url("/e"))
        guard case .failure(.badStatus(_, let got, _))? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(got == code)
        #expect(server.requests(to: "/e").count == 1)
        #expect(downloader.statistics.snapshot.retries == 0)
        await server.stop()
    }

    @Test func aRetryAfterBeyondTheCapIsNotWaitedFor() async throws {
        let server = try await LoopbackServer.start()
        server.route("/later", StubResponse(status: 503, headers: ["Retry-After": "120"], body: Data()))
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let result = await Self.download(downloader, server.url("/later"))
        guard case .failure(.badStatus(_, 503, _))? = result else { Issue.record("\(String(describing: result))"); return }
        #expect(server.requests(to: "/later").count == 1)
        await server.stop()
    }

    @Test func cancellingDuringTheWaitSendsNoSecondRequest() async throws {
        let server = try await LoopbackServer.start()
        server.route("/busy", StubResponse(status: 503, headers: ["Retry-After": "2"], body: Data()))
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 2))
        let recorder = ResultRecorder()
        let token = downloader.downloadImage(with: server.url("/busy")) { recorder.record($0) }
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.contains { $0.path == "/busy" && $0.finished } })
        token?.cancel()
        try await Task.sleep(for: .milliseconds(2500))  // past the Retry-After: a retry would be in the log
        #expect(server.requests(to: "/busy").count == 1)
        #expect(downloader.currentDownloadCount == 0)
        await server.stop()
    }

    @Test func retryAfterAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_770)  // 08:49:30
        let response = DownloadResponse(statusCode: 503, headers: ["retry-after": "Sun, 06 Nov 1994 08:49:37 GMT"], url: URL(string: "http://h/")!)
        let error = DownloadError.badStatus(url: URL(string: "http://h/")!, code: 503, reason: "")
        #expect(ImageDownloadOperation.retryDelay(for: error, response: response, now: now) == .seconds(7))
        #expect(HTTPDate.parse("not a date") == nil)
    }
}
