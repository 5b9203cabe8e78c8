import Foundation
import Testing
@testable import TestSupport

/// The loopback server is infrastructure every other suite depends on: each behaviour it promises
/// is checked here with the real curl client.
@Suite struct LoopbackServerTests {
    let body = Data((0..<40_000).map { UInt8($0 % 251) })

    @Test func servesRouteAndLogsRequest() async throws {
        let server = try await LoopbackServer.start()
        server.route("/a.bin", .ok(body, contentType: "image/jpeg"))
        let result = try await CurlCLI.run(server.url("/a.bin?x=1"), ["-H", "X-Test: hello"])
        #expect(result.status == 200)
        #expect(same(result.body, body))
        #expect(result.headers("content-type") == ["image/jpeg"])
        #expect(await server.waitUntil { $0.first?.finished == true })
        let entry = try #require(server.requests(to: "/a.bin").first)
        #expect(entry.method == "GET")
        #expect(entry.query == "x=1")
        #expect(entry.header("x-test") == "hello")
        #expect(entry.status == 200)
        #expect(entry.bytesSent == body.count)
        #expect(!entry.clientDisconnectedEarly)
        let unknown = try await CurlCLI.run(server.url("/nothing"))
        #expect(unknown.status == 404)
        await server.stop()
    }

    @Test func arbitraryStatusAndReasonPhrase() async throws {
        let server = try await LoopbackServer.start()
        server.route("/teapot", .status(418, body: "short and stout", reason: "I'm a teapot"))
        server.route("/gone", .status(410))
        let teapot = try await CurlCLI.run(server.url("/teapot"))
        #expect(teapot.status == 418)
        #expect(teapot.statusLine == "HTTP/1.1 418 I'm a teapot")
        #expect(String(decoding: teapot.body, as: UTF8.self) == "short and stout")
        #expect(try await CurlCLI.run(server.url("/gone")).status == 410)
        await server.stop()
    }

    @Test func redirectChainLoopAndFileScheme() async throws {
        let server = try await LoopbackServer.start()
        server.route("/r1", .redirect(to: "/r2"))
        server.route("/r2", .redirect(to: server.url("/final").absoluteString, status: 301))
        server.route("/final", .ok(Data("done".utf8)))
        server.route("/loop", .redirect(to: "/loop"))
        server.route("/evil", .redirect(to: "file:///etc/passwd"))
        let chain = try await CurlCLI.run(server.url("/r1"), ["-L"])
        #expect(chain.status == 200)
        #expect(String(decoding: chain.body, as: UTF8.self) == "done")
        #expect(server.requests.map(\.path) == ["/r1", "/r2", "/final"])
        let loop = try await CurlCLI.run(server.url("/loop"), ["-L", "--max-redirs", "5"])
        #expect(loop.exitCode == 47)  // CURLE_TOO_MANY_REDIRECTS
        #expect(server.requests(to: "/loop").count == 6)
        let evil = try await CurlCLI.run(server.url("/evil"))
        #expect(evil.status == 302)
        #expect(evil.headers("location") == ["file:///etc/passwd"])
        await server.stop()
    }

    @Test func validatorsAnswerNotModified() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"v1\""
        stub.lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
        server.route("/v", stub)
        let first = try await CurlCLI.run(server.url("/v"))
        #expect(first.status == 200)
        #expect(first.headers("etag") == ["\"v1\""])
        #expect(first.headers("last-modified") == ["Wed, 21 Oct 2015 07:28:00 GMT"])
        let byTag = try await CurlCLI.run(server.url("/v"), ["-H", "If-None-Match: \"v1\""])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        let staleTag = try await CurlCLI.run(server.url("/v"), ["-H", "If-None-Match: \"v0\""])
        #expect(staleTag.status == 200)
        var dateOnly = stub
        dateOnly.etag = nil
        server.route("/d", dateOnly)
        let byDate = try await CurlCLI.run(server.url("/d"), ["-H", "If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT"])
        #expect(byDate.status == 304)
        #expect(server.requests(to: "/v").last?.header("If-None-Match") == "\"v0\"")
        await server.stop()
    }

    @Test func rangeRequestsGetPartialContent() async throws {
        let server = try await LoopbackServer.start()
        server.route("/r", .ok(body))
        let partial = try await CurlCLI.run(server.url("/r"), ["-r", "100-199"])
        #expect(partial.status == 206)
        #expect(same(partial.body, body.subdata(in: 100..<200)))
        #expect(partial.headers("content-range") == ["bytes 100-199/\(body.count)"])
        let tail = try await CurlCLI.run(server.url("/r"), ["-H", "Range: bytes=-10"])
        #expect(same(tail.body, body.suffix(10)))
        let bad = try await CurlCLI.run(server.url("/r"), ["-H", "Range: bytes=999999-"])
        #expect(bad.status == 416)
        await server.stop()
    }

    @Test func basicAuthAndCookies() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(Data("secret".utf8))
        stub.basicAuth = ("user", "pa:ss")
        stub.cookies = ["a=1; Path=/", "b=2; HttpOnly"]
        server.route("/private", stub)
        let denied = try await CurlCLI.run(server.url("/private"))
        #expect(denied.status == 401)
        #expect(denied.headers("www-authenticate").first?.hasPrefix("Basic") == true)
        let wrong = try await CurlCLI.run(server.url("/private"), ["-u", "user:nope"])
        #expect(wrong.status == 401)
        let allowed = try await CurlCLI.run(server.url("/private"), ["-u", "user:pa:ss"])
        #expect(allowed.status == 200)
        #expect(allowed.headers("set-cookie").sorted() == ["a=1; Path=/", "b=2; HttpOnly"])
        #expect(server.requests.last?.header("authorization")?.hasPrefix("Basic ") == true)
        await server.stop()
    }
}
