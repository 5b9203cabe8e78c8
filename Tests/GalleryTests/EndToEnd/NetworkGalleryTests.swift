import Foundation
import Testing
import TestSupport

/// The real gallery in tmux against the loopback HTTP server: errors, refresh with validators, and
/// scroll cancellation. Async waits, so the in-process server keeps its threads.
@Suite(.endToEnd, EndToEnd.needs(.tmux))
struct NetworkGalleryTests {
    /// Starts the gallery in tmux on a list of the server's paths (with titles).
    func launch(_ server: LoopbackServer, _ paths: [(path: String, title: String)], arguments: String = "",
                columns: Int = 120, rows: Int = 30) async throws -> (TmuxSession, URL) {
        let dir = try Fixtures.temporaryDirectory("gallery-net")
        let list = paths.map { "\(server.url($0.path).absoluteString) \($0.title)" }.joined(separator: "\n")
        try Data(list.utf8).write(to: dir.appendingPathComponent("list.txt"))
        let command = "cd \(dir.path) && TERM=tmux-256color COLORTERM=truecolor XDG_CACHE_HOME=\(dir.path)/cache "
            + "\(EndToEnd.binary.path) \(arguments) list.txt; echo SDG-EXIT=$?; sleep 30"
        return (try await TmuxSession.start(columns: columns, rows: rows, command: command), dir)
    }

    @Test(.timeLimit(.minutes(1)))
    func imagesAndErrorsFromTheNetworkShowInTheirCells() async throws {
        let server = try await LoopbackServer.start()
        server.route("/red.png", .ok(TestPNG.solid(width: 64, height: 48, rgba: (255, 0, 0, 255)), contentType: "image/png"))
        server.route("/missing.png", .status(404, body: "no such image"))
        server.route("/page.png", StubResponse(status: 200, headers: ["Content-Type": "text/html"],
                                               body: Data("<!DOCTYPE html><html><body>login</body></html>".utf8)))
        server.route("/evil.png", .status(404, body: "x", reason: "Gone\u{1B}[2J\u{1B}]0;pwned\u{07}Away"))
        let (tmux, dir) = try await launch(server, [("/red.png", "Red"), ("/missing.png", "Missing"), ("/page.png", "Page"),
                                              ("/evil.png", "Evil")], arguments: "--columns 4")
        defer { try? FileManager.default.removeItem(at: dir) }
        let shown = await tmux.wait(timeout: 8) { $0.contains("404 Not Found") && $0.contains("not an image") && $0.contains("64×48") }
        #expect(shown.ok, "errors or image missing: \(shown.screen)")
        let colours = await tmux.wait(timeout: 8, escapes: true) { $0.contains("38;2;255;0;0") }
        #expect(colours.ok, "the red image is not drawn")
        // The hostile reason phrase arrives as text, its escapes neutralised (no title change, no clear).
        let evil = await tmux.wait(timeout: 8) { $0.contains("Gone [2J ]0;pwned Away") || $0.contains("404 Gone") }
        #expect(evil.ok, "sanitized reason phrase not shown: \(evil.screen)")
        let finalScreen = await tmux.capture(escapes: true)
        #expect(!finalScreen.contains("\u{1B}]0;pwned"))
        await tmux.send("q")
        #expect(await tmux.wait(timeout: 8) { $0.contains("SDG-EXIT=0") }.ok)
        await server.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func refreshRevalidatesWithTheETagAndKeepsTheCellOn304() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(TestPNG.solid(width: 64, height: 48, rgba: (0, 0, 255, 255)), contentType: "image/png")
        stub.etag = "\"blue-1\""
        server.route("/blue.png", stub)
        let (tmux, dir) = try await launch(server, [("/blue.png", "Blue")])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(await tmux.wait(timeout: 8) { $0.contains("64×48") }.ok)
        #expect(await tmux.wait(timeout: 8, escapes: true) { $0.contains("38;2;0;0;255") }.ok)
        await tmux.send("r")
        let revalidated = await server.waitUntil(timeout: .seconds(8)) { log in
            log.contains { $0.path == "/blue.png" && $0.header("If-None-Match") == "\"blue-1\"" && $0.status == 304 }
        }
        #expect(revalidated, "no conditional request answered 304: \(server.requests.map { ($0.status, $0.header("If-None-Match") ?? "-") })")
        try await Task.sleep(for: .milliseconds(400))
        let after = await tmux.capture(escapes: true)
        #expect(after.contains("38;2;0;0;255"), "the cell lost its image after 304")
        #expect(!after.contains("loading"))
        #expect(server.requests(to: "/blue.png").count == 2)
        await tmux.send("q")
        await server.stop()
    }

    @Test(.timeLimit(.minutes(2)))
    func pagingThroughThrottledURLsCancelsWhatLeftTheScreen() async throws {
        let server = try await LoopbackServer.start()
        server.route("/slow") { _ in StubResponse() }
        var paths: [(String, String)] = []
        for i in 0..<500 {
            var stub = StubResponse.ok(TestPNG.solid(width: 32, height: 32, rgba: (UInt8(i % 200), 120, 40, 255)), contentType: "image/png")
            stub.bytesPerSecond = 16_000  // ~4 KB each: a quarter second per image
            stub.chunkSize = 512
            server.route("/img/\(i).png", stub)
            paths.append(("/img/\(i).png", "N\(i)"))
        }
        let (tmux, dir) = try await launch(server, paths, arguments: "--max-concurrent 6", columns: 100, rows: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(await tmux.wait(timeout: 8) { $0.contains("/500") }.ok)
        for _ in 0..<12 {
            await tmux.send("NPage")
            try await Task.sleep(for: .milliseconds(40))
        }
        // The last screen completes: nothing loading or waiting, no transfer left (the next screens'
        // prefetches too). Generous: under AddressSanitizer on a loaded 2-core machine it took > 25 s.
        let settled = await tmux.wait(timeout: 60) { screen in
            !screen.contains("loading") && !screen.contains("waiting") && !screen.contains("%") && screen.contains("32×32")
                && !screen.contains(" active")
        }
        #expect(settled.ok, "final screen incomplete: \(settled.screen)")
        // The server notices a hang-up at its next write: let the log settle.
        let quiet = await server.waitUntil(timeout: .seconds(5)) { log in log.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        let log = server.requests
        let abandoned = log.filter(\.clientDisconnectedEarly)
        let open = log.filter { !$0.finished && !$0.clientDisconnectedEarly }
        let lastScreen = quiet ? "" : await tmux.capture()
        #expect(quiet, "\(open.count) transfers still open: \(open.map { "\($0.path) sent \($0.bytesSent)" }); screen: \(lastScreen)")
        #expect(!abandoned.isEmpty, "no transfer was cancelled while paging")
        // At most every cell that was on one of the 13 screens (24 each) plus one prefetched screen;
        // without cancellation all 500 would be fetched.
        #expect(log.count <= 13 * 24 + 24, "\(log.count) requests: off-screen items were fetched")
        await tmux.send("q")
        await server.stop()
    }
}
