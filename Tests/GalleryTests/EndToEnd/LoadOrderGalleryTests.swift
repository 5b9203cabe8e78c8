import Foundation
import Testing
import TestSupport

/// The order downloads go out in, seen from the server (one download slot): like a browser, the selected cell first,
/// then its neighbours in reading order, prefetches after everything visible — even when there are
/// more visible cells than download slots.
@Suite(.endToEnd, EndToEnd.needs(.tmux))
struct LoadOrderGalleryTests {
    @Test(.timeLimit(.minutes(2)))
    func theSelectedCellLoadsFirstThenItsNeighboursInReadingOrder() async throws {
        let server = try await LoopbackServer.start()
        var lines: [String] = []
        for i in 0..<60 {
            var stub = StubResponse.ok(TestPNG.solid(width: 32, height: 32, rgba: (UInt8(i * 4), 90, 200, 255)), contentType: "image/png")
            stub.bytesPerSecond = 40_000  // ~4 KB each: a tenth of a second per image
            stub.chunkSize = 1024
            server.route("/img/\(i).png", stub)
            lines.append("\(server.url("/img/\(i).png").absoluteString) N\(i)")
        }
        let dir = try Fixtures.temporaryDirectory("gallery-order")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(lines.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache "
            + "\(EndToEnd.binary.path) --max-concurrent 1 list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        // Wait until the first screen (24 cells) is requested.
        #expect(await server.waitUntil(timeout: .seconds(60)) { $0.count >= 24 }, "only \(server.requests.count) requests")
        let order = server.requests.prefix(24).compactMap { Int($0.path.dropFirst(5).dropLast(4)) }
        #expect(order.first == 0, "the selected cell was not requested first: \(order)")
        // One slot for 24 cells: every visible cell before any prefetch, nearest to the selection first.
        #expect(order == Array(0..<24), "not in reading order from the selection, or a prefetch first: \(order)")
        await tmux.send("q")
        await server.stop()
    }
}
