import Foundation
import Testing
@testable import TestSupport

/// The hostile behaviours the network tests need, checked with the real curl client: a TCP reset
/// mid-body, gzip bodies (and a gzip bomb), and escape sequences passed through byte for byte in
/// the status line and headers.
@Suite struct LoopbackServerHostileTests {
    let body = Data((0..<40_000).map { UInt8($0 % 249) })
    /// curl's time limit: generous, since the server shares a loaded machine with the whole suite.
    let patient = ["--max-time", "40"]

    @Test func resetAfterSendsARSTNotAFIN() async throws {
        let server = try await LoopbackServer.start()
        var reset = StubResponse.ok(body)
        reset.fault = .resetAfter(bytes: 3000)
        server.route("/reset", reset)
        var cut = StubResponse.ok(body)
        cut.fault = .cutAfter(bytes: 3000)
        server.route("/cut", cut)
        let r = try await CurlCLI.run(server.url("/reset"), patient)
        #expect(r.exitCode == 56)  // CURLE_RECV_ERROR: "Connection reset by peer"
        #expect(r.body.count <= 3000)
        #expect(r.headers("content-length") == ["40000"])
        // The same stub with a plain close is an early end of file, not a reset.
        let c = try await CurlCLI.run(server.url("/cut"), patient)
        #expect(c.exitCode == 18)  // CURLE_PARTIAL_FILE
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.count == 2 && $0.allSatisfy(\.clientDisconnectedEarly) })
        #expect(server.requests(to: "/reset").first?.bytesSent == 3000)
        await server.stop()
    }

    @Test func gzipBodiesInflateToTheOriginal() async throws {
        let server = try await LoopbackServer.start()
        server.route("/gz", .gzipped(body, contentType: "image/png"))
        server.route("/bomb", StubResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: TestGzip.zeros(count: 100_001)))
        let raw = try await CurlCLI.run(server.url("/gz"), patient)
        #expect(raw.headers("content-encoding") == ["gzip"])
        #expect(raw.body.prefix(2) == Data([0x1F, 0x8B]))
        let inflated = try await CurlCLI.run(server.url("/gz"), patient + ["--compressed"])
        #expect(inflated.exitCode == 0)
        #expect(same(inflated.body, body))
        // curl checks the gzip trailer (CRC-32 and size): exit 0 means the member is well formed.
        let bomb = try await CurlCLI.run(server.url("/bomb"), patient + ["--compressed"])
        #expect(bomb.exitCode == 0)
        #expect(bomb.body.count == 100_001 && bomb.body.allSatisfy { $0 == 0 })
        #expect(TestGzip.zeros(count: 100_001).count < 1000)
        await server.stop()
    }

    @Test func escapeSequencesReachTheWireUnchanged() async throws {
        let server = try await LoopbackServer.start()
        let payload = "\u{1B}]0;PWNED\u{07}\u{1B}[31mEVIL"
        var stub = StubResponse.status(404, body: "<html>\(payload)</html>", reason: "Gone \(payload)")
        stub.headers["Content-Type"] = "text/html; \(payload)"
        stub.headers["Content-Disposition"] = "attachment; filename=\"\(payload).png\""
        server.route("/evil", stub)
        let result = try await CurlCLI.run(server.url("/evil"), patient)
        #expect(result.status == 404)
        #expect(result.statusLine == "HTTP/1.1 404 Gone \(payload)")
        #expect(result.headers("content-type") == ["text/html; \(payload)"])
        #expect(result.headers("content-disposition") == ["attachment; filename=\"\(payload).png\""])
        #expect(String(decoding: result.body, as: UTF8.self).contains(payload))
        await server.stop()
    }
}
