import Foundation
import Testing
import TestSupport
@testable import WebImage

/// An overall deadline per transfer, scaled by the size cap (issue 21: a body dripped at one byte a
/// second or faster never timed out and held a download slot forever).
@Suite struct TransferDeadlineTests {
    @Test func aDrippedBodyTimesOutAtTheDeadline() async throws {
        let server = try await LoopbackServer.start()
        // 60 KB at 2000 B/s: 30 s long, so only the deadline stops it, and far above the minimum rate
        // (256 B/s over an idle timeout of 2 s: 512 bytes) even when the loaded server pauses (it once
        // paused over 1 s between bytes; a pause of 1.7 s would still pass).
        var drip = StubResponse.ok(DownloaderTestKit.fakeImageBytes(60 * 1024), contentType: "image/fake")
        drip.bytesPerSecond = 2000
        drip.chunkSize = 100
        server.route("/drip", drip)
        var config = DownloaderTestKit.config(timeout: 2)
        config.maxResponseBytes = 64 * 1024
        // One idle timeout in the deadline, not 4 (`theDeadlineScalesWithTheSizeCap` checks the real
        // formula): 2 s + 64 KB at 64 KB/s = 3 s, the same drip and idle timeout (9 s with 4).
        config.deadlineIdleTimeouts = 1
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
        #expect(limit == .milliseconds(3000))
        #expect(received > 0 && received < 60 * 1024)
        #expect(elapsed >= .seconds(3) && elapsed < .seconds(35))
        await server.stop()
    }

    @Test func theDeadlineScalesWithTheSizeCap() {
        #expect(CurlRequest(url: URL(string: "http://a/")!, timeout: .seconds(15), maxBytes: 64 << 20).deadline == .seconds(60 + 1024))
        #expect(CurlRequest(url: URL(string: "http://a/")!, timeout: .seconds(15), maxBytes: 0).deadline == .seconds(660))
        #expect(ImageDownloaderConfig().deadlineIdleTimeouts == 4)
    }
}
