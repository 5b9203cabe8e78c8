import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// A decoder that knows its image is final before it makes it (`IncrementalDecoding.hasSufficientBytes`:
/// a JPEG XL's DC event, whose flush and scaling take 0.2 s for 12 MP) has the transfer stopped first,
/// so the bytes sent do not depend on how long the image takes to make, nor on the build. The decoder
/// here knows at `known` bytes and makes its image only once the server's log shows the request over
/// (the client gone, or the body sent): had the transfer waited for the image, the whole body would go.
@Suite struct HaltBeforeImageDownloadTests {
    /// Knows at `known` bytes; its image (`gives`: or none, a decoder that turns out wrong) is made
    /// once `over()` holds (at most 30 s: a bound for a broken build, not a wait of the test).
    final class SlowSufficientDecoder: IncrementalDecoding, @unchecked Sendable {
        let known: Int
        let gives: Bool
        let over: @Sendable () -> Bool
        private var bytes = 0

        init(known: Int, gives: Bool, over: @escaping @Sendable () -> Bool) {
            self.known = known
            self.gives = gives
            self.over = over
        }

        func append(_ chunk: Data) { bytes += chunk.count }
        func partialImage() -> Image? { nil }
        func finish() throws -> Image { Image(width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 255]) }
        var hasSufficientBytes: Bool { bytes >= known }

        func sufficientImage() -> Image? {
            guard bytes >= known else { return nil }
            let deadline = ContinuousClock.now + .seconds(30)
            while !over() && ContinuousClock.now < deadline { usleep(1000) }
            return gives ? Image(width: 1, height: 1, pixels: [1, 2, 3, 255]).tiered(.scale(denominator: 8)) : nil
        }
    }

    static let known = 64 * 1024
    /// What may be sent past `known`: the chunks in flight while the lane sees the bytes and the
    /// stop reaches the server (a few 4 KB chunks when idle; 192 ms of the link at 1 MB/s).
    static let slack = 192 * 1024
    /// 1 MB/s, as the sheet's figure; under a sanitizer the lane is slower, the link too.
    static let rate = Sanitizers.thread || Sanitizers.address ? 250_000 : 1_000_000

    /// A downloader whose decoder is a `SlowSufficientDecoder` and a server sending 1 MB at `rate`.
    static func setUp(gives: Bool) async throws -> (LoopbackServer, ImageDownloader, Data) {
        let server = try await LoopbackServer.start()
        let body = DownloaderTestKit.fakeImageBytes(1 << 20)
        var stub = StubResponse.ok(body, contentType: "image/fake")
        stub.etag = "\"h1\""
        stub.bytesPerSecond = rate
        server.route("/slow", stub)
        var config = DownloaderTestKit.config()
        let over: @Sendable () -> Bool = { server.requests(to: "/slow").allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        config.decoding = ImageDecoding(decode: DownloaderTestKit.fakeDecoding.decode,
                                        makeIncrementalDecoder: { _ in SlowSufficientDecoder(known: known, gives: gives, over: over) })
        return (server, ImageDownloader(config: config), body)
    }

    static func request(_ server: LoopbackServer) -> ImageRequest {
        ImageRequest(url: server.url("/slow"), targetSize: PixelSize(width: 40, height: 24), delivery: [.progressiveLoad, .stopWhenSufficient])
    }

    @Test func theTransferStopsBeforeTheImageIsMade() async throws {
        let (server, downloader, body) = try await Self.setUp(gives: true)
        let result = try await downloader.image(for: Self.request(server))
        #expect(!result.isWholeBody)
        #expect(result.image?.earlyTier == .scale(denominator: 8))
        _ = await server.waitUntil { $0.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        let requests = server.requests(to: "/slow")
        let sent = requests.map(\.bytesSent).reduce(0, +)
        print("halted at \(Self.known) B known, \(Self.rate) B/s: \(sent) of \(body.count) bytes sent: \(NeededBytesDownloadTests.log(requests))")
        #expect(requests.count == 1)
        #expect(sent >= Self.known && sent <= Self.known + Self.slack)
        await server.stop()
    }

    /// The image does not come after the stop: the same load goes on from there with `Range` to the
    /// end (no byte twice), decoded whole, and is not stopped again for what the decoder says.
    @Test func aStopWhoseImageDoesNotComeGoesOnFromThere() async throws {
        let (server, downloader, body) = try await Self.setUp(gives: false)
        let result = try await downloader.image(for: Self.request(server))
        #expect(result.isWholeBody)
        #expect(result.image?.size == PixelSize(width: 2, height: 1))
        #expect(result.data == body)
        let requests = server.requests(to: "/slow")
        try #require(requests.count == 2, "\(NeededBytesDownloadTests.log(requests))")
        let range = try #require(requests[1].header("Range"))
        let start = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(start >= Self.known && start <= Self.known + Self.slack)
        #expect(requests[1].header("If-Range") == "\"h1\"")
        await server.stop()
    }
}
