import Foundation
import Testing
import TestSupport
@testable import WebImage

@Suite struct DownloadStatisticsTests {
    @Test func countsRequestsCoalescingCancelsAndBytes() async throws {
        let server = try await LoopbackServer.start()
        var slow = StubResponse.ok(TestPNG.solid(width: 32, height: 32, rgba: (1, 2, 3, 255)), contentType: "image/png")
        slow.bytesPerSecond = 20_000
        server.route("/s.png", slow)
        let downloader = ImageDownloader()
        let done = CallbackRecorder<Bool>()
        let tokens = (0..<3).map { _ in
            downloader.downloadImage(with: server.url("/s.png")) { done.record((try? $0.get()) != nil) }
        }
        tokens[0]?.cancel()
        #expect(await done.wait(count: 2, timeout: .seconds(30)))
        let stats = downloader.statistics.snapshot
        #expect(stats.requests == 3)
        #expect(stats.coalesced == 2)
        #expect(stats.transfers == 1)
        #expect(stats.cancelled == 1)
        #expect(stats.bytesReceived == Int64(slow.body.count))
        #expect(server.requests(to: "/s.png").count == 1)
        await server.stop()
    }
}
