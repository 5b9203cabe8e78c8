import Foundation
import Testing
import TestSupport

/// The order downloads go out in, seen from the server: like a browser, the selected cell first,
/// then its neighbours in reading order, prefetches after everything visible — even when there are
/// more visible cells than download slots.
@Suite(.enabled(if: EndToEnd.tmuxInstalled, "tmux is not installed"),
       .enabled(if: EndToEnd.binaryBuilt, "needs .build/debug/sdgallery (swift build)"))
struct LoadOrderGalleryTests {
    @Test(.timeLimit(.minutes(2)))
    func theSelectedCellLoadsFirstThenItsNeighboursInReadingOrder() async throws {
        let server = try await LoopbackServer.start()
        var lines: [String] = []
        for i in 0..<60 {
            var stub = StubResponse.ok(TestPNG.solid(width: 32, height: 32, rgba: (UInt8(i * 4), 90, 200, 255)), contentType: "image/png")
            stub.bytesPerSecond = 20_000  // ~4 KB each: a fifth of a second per image
            stub.chunkSize = 1024
            server.route("/img/\(i).png", stub)
            lines.append("\(server.url("/img/\(i).png").absoluteString) N\(i)")
        }
        let dir = try Fixtures.temporaryDirectory("gallery-order")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(lines.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(dir.path)/cache "
            + "\(EndToEnd.binary.path) --max-concurrent 2 list.txt; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        // Wait until the first screen (24 cells) is requested.
        #expect(await server.waitUntil(timeout: .seconds(60)) { $0.count >= 24 }, "only \(server.requests.count) requests")
        let order = server.requests.prefix(24).compactMap { Int($0.path.dropFirst(5).dropLast(4)) }
        #expect(order.first == 0, "the selected cell was not requested first: \(order)")
        // Visible cells come before any prefetch, nearest to the selection first (2 slots: the
        // arrival order can swap neighbours that start together, never more).
        #expect(Set(order) == Set(0..<24), "a prefetch went out before a visible cell: \(order)")
        for (position, index) in order.enumerated() { #expect(abs(index - position) <= 1, "request \(position) was image \(index): \(order)") }
        await tmux.send("q")
        await server.stop()
    }
}
