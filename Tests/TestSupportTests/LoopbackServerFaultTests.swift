import Foundation
import Testing
@testable import TestSupport

/// Delivery behaviours: throttle, first-byte delay, chunked, lies, stalls, cuts, disconnects.
@Suite struct LoopbackServerFaultTests {
    let body = Data((0..<40_000).map { UInt8($0 % 253) })

    @Test func throttleAndFirstByteDelaySlowTheBody() async throws {
        let server = try await LoopbackServer.start()
        var slow = StubResponse.ok(body)
        slow.bytesPerSecond = 100_000  // 40 KB → ≥ 0.4 s
        server.route("/slow", slow)
        var late = StubResponse.ok(Data("x".utf8))
        late.firstByteDelay = .milliseconds(300)
        server.route("/late", late)
        server.route("/fast", .ok(body))
        async let slowResult = CurlCLI.run(server.url("/slow"))
        async let lateResult = CurlCLI.run(server.url("/late"))
        async let fastResult = CurlCLI.run(server.url("/fast"))
        let (s, l, f) = try await (slowResult, lateResult, fastResult)
        #expect(same(s.body, body))
        #expect(s.seconds >= 0.35)
        #expect(l.seconds >= 0.28)
        #expect(f.seconds < s.seconds)
        await server.stop()
    }

    @Test func chunkedBodyAndAnnouncedLength() async throws {
        let server = try await LoopbackServer.start()
        var chunked = StubResponse.ok(body)
        chunked.chunked = true
        server.route("/chunked", chunked)
        var huge = StubResponse.ok(Data(repeating: 0, count: 1000))
        huge.announcedLength = 10 << 30
        server.route("/huge", huge)
        let c = try await CurlCLI.run(server.url("/chunked"))
        #expect(c.headers("transfer-encoding") == ["chunked"])
        #expect(c.headers("content-length").isEmpty)
        #expect(same(c.body, body))
        let h = try await CurlCLI.run(server.url("/huge"), ["--max-filesize", "100000"])
        #expect(h.exitCode == 63)  // CURLE_FILESIZE_EXCEEDED, from the header alone
        #expect(h.headers("content-length") == ["\(10 << 30)"])
        await server.stop()
    }

    @Test func stalledBodyHoldsThenGivesUp() async throws {
        let server = try await LoopbackServer.start()
        var stall = StubResponse.ok(body)
        stall.fault = .stallAfter(bytes: 1000)
        stall.stallLimit = .seconds(3)
        server.route("/stall", stall)
        let result = try await CurlCLI.run(server.url("/stall"), ["--max-time", "1.5"])
        #expect(result.exitCode == 28)  // timed out
        #expect(result.body.count == 1000)
        #expect(await server.waitUntil(timeout: .seconds(8)) { $0.first?.clientDisconnectedEarly == true })
        #expect(server.requests.first?.bytesSent == 1000)
        #expect(server.requests.first?.finished == false)
        await server.stop()
    }

    @Test func bodyCutShortClosesConnection() async throws {
        let server = try await LoopbackServer.start()
        var cut = StubResponse.ok(body)
        cut.fault = .cutAfter(bytes: 5000)
        server.route("/cut", cut)
        let result = try await CurlCLI.run(server.url("/cut"))
        #expect(result.exitCode == 18)  // CURLE_PARTIAL_FILE
        #expect(result.body.count == 5000)
        #expect(await server.waitUntil { $0.first?.clientDisconnectedEarly == true })
        await server.stop()
    }

    @Test func clientGivingUpIsLogged() async throws {
        let server = try await LoopbackServer.start()
        var slow = StubResponse.ok(Data(repeating: 7, count: 400_000))
        slow.bytesPerSecond = 200_000
        server.route("/slow", slow)
        let result = try await CurlCLI.run(server.url("/slow"), ["--max-time", "0.4"])
        #expect(result.exitCode == 28)
        #expect(await server.waitUntil(timeout: .seconds(15)) { $0.first?.clientDisconnectedEarly == true })
        let entry = try #require(server.requests.first)
        #expect(entry.bytesSent < 400_000)
        #expect(!entry.finished)
        await server.stop()
    }

    @Test func endlessBodyNeverEnds() async throws {
        let server = try await LoopbackServer.start()
        var endless = StubResponse.ok(Data())
        endless.fault = .endless
        endless.stallLimit = .seconds(3)  // past the client's 2 s; the server's writer ends there
        server.route("/endless", endless)
        // The tests run one at a time (`scripts/run-tests`): 2 s is plenty for the first bytes (in
        // parallel on 2 cores, 1.5 s once got none while the rest of the suite started).
        let result = try await CurlCLI.run(server.url("/endless"), ["--max-time", "2"])
        #expect(result.exitCode == 28)
        #expect(result.body.count > 20_000)
        await server.stop()
    }

    @Test func servesDirectoryWithValidators() async throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try body.write(to: dir.appendingPathComponent("pic.jpg"))
        let server = try await LoopbackServer.start()
        server.serveDirectory(dir, under: "/files")
        let first = try await CurlCLI.run(server.url("/files/pic.jpg"))
        #expect(first.status == 200)
        #expect(same(first.body, body))
        #expect(first.headers("content-type") == ["image/jpeg"])
        let etag = try #require(first.headers("etag").first)
        let again = try await CurlCLI.run(server.url("/files/pic.jpg"), ["-H", "If-None-Match: \(etag)"])
        #expect(again.status == 304)
        #expect(try await CurlCLI.run(server.url("/files/nope.jpg")).status == 404)
        #expect(try await CurlCLI.run(server.url("/files/../etc/passwd"), ["--path-as-is"]).status == 404)
        await server.stop()
    }

    @Test func computedRoutesSeeTheRequestAndConcurrencyIsLogged() async throws {
        let server = try await LoopbackServer.start()
        server.route("/echo") { request in .ok(Data((request.header("x-n") ?? "?").utf8)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<10 {
                group.addTask {
                    let result = try await CurlCLI.run(server.url("/echo"), ["-H", "X-N: \(n)"])
                    #expect(String(decoding: result.body, as: UTF8.self) == "\(n)")
                }
            }
            try await group.waitForAll()
        }
        #expect(server.requests(to: "/echo").count == 10)
        #expect(Set(server.requests.map(\.id)).count == 10)
        server.resetLog()
        #expect(server.requests.isEmpty)
        await server.stop()
    }
}
