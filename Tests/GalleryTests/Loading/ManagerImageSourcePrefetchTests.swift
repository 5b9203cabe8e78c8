import Foundation
import ImageCodecs
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// Prefetches warm the cache at the cells' sizes, so they stop once those pixels are known, as the
/// cells' own loads do (`.stopWhenSufficient`): real manager, real libcurl, the loopback server.
@Suite struct ManagerImageSourcePrefetchTests {
    @Test(.timeLimit(.minutes(1)))
    func aPrefetchStopsOnceTheCellsPixelsAreKnown() async throws {
        let side = 512
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(truncatingIfNeeded: i / 4) }
        let body = TestPNG.adam7(width: side, height: side, rgba: pixels)
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"p1\""
        stub.bytesPerSecond = 2_000_000
        server.route("/a.png", stub)
        let inbox = try UIInbox<GalleryEvent>()
        let source = ManagerImageSourceTests.makeSource(inbox)
        let item = ManagerImageSourceTests.item(server.url("/a.png"))
        let cell = PixelSize(width: 64, height: 64)  // 1/8 of the image: its first Adam7 pass is enough
        source.prefetch(PrefetchRequest(index: 0, target: cell), item: item)
        #expect(await server.waitUntil { $0.first { $0.path == "/a.png" }.map { $0.finished || $0.clientDisconnectedEarly } == true })
        let sent = server.requests(to: "/a.png").first?.bytesSent ?? .max
        #expect(sent < body.count / 8, "the prefetch fetched \(sent) of \(body.count) bytes")
        let deadline = ContinuousClock.now + .seconds(10)
        while source.cachedImage(for: item, targetSize: cell) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(source.cachedImage(for: item, targetSize: cell)?.size == cell)
        source.cancelAll()
        await server.stop()
    }
}
