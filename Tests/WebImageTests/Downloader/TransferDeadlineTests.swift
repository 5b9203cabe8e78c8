import Foundation
import Testing
import TestSupport
@testable import WebImage

/// An overall deadline per transfer, scaled by the size cap (issue 21: a body dripped at one byte a
/// second or faster never timed out and held a download slot forever).
@Suite struct TransferDeadlineTests {
    @Test func aDrippedBodyTimesOutAtTheDeadline() async throws {
        let server = try await LoopbackServer.start()
        // 12 KB at 1000 B/s: well above the minimum rate (256 B/s) even when the loaded server lags,
        // and 12 s long, so only the deadline stops it.
        var drip = StubResponse.ok(DownloaderTestKit.fakeImageBytes(12 * 1024), contentType: "image/fake")
        drip.bytesPerSecond = 1000
        drip.chunkSize = 50
        server.route("/drip", drip)
        var config = DownloaderTestKit.config(timeout: 2)
        config.maxResponseBytes = 16 * 1024  // deadline: 4 × 2 s + 16 KB at 64 KB/s = 8.25 s (an idle timeout of 2 s: the
        // in-process server, on a loaded machine, once paused over 1 s between bytes)
        let downloader = ImageDownloader(config: config)
        let recorder = ResultRecorder()
        let start = ContinuousClock.now
        downloader.downloadImage(with: server.url("/drip")) { recorder.record($0) }
        #expect(await recorder.wait(timeout: .seconds(60)) { results in results.contains { if case .success(let r) = $0 { return r.isFinished } else { return true } } })
        let elapsed = ContinuousClock.now - start
        guard case .failure(.timedOut(_, .deadline(let received), let limit))? = recorder.finals.first else {
            Issue.record("\(recorder.finals)")
            await server.stop()
            return
        }
        #expect(limit == .milliseconds(8250))
        #expect(received > 0 && received < 12 * 1024)
        #expect(elapsed >= .seconds(8) && elapsed < .seconds(40))
        await server.stop()
    }

    @Test func theDeadlineScalesWithTheSizeCap() {
        #expect(CurlRequest(url: URL(string: "http://a/")!, timeout: .seconds(15), maxBytes: 64 << 20).deadline == .seconds(60 + 1024))
        #expect(CurlRequest(url: URL(string: "http://a/")!, timeout: .seconds(15), maxBytes: 0).deadline == .seconds(660))
    }
}
