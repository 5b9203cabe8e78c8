import Foundation
import Testing
import TestSupport
@testable import WebImage

/// `--header` values go only to the requested URL's origin: libcurl would send them to every host
/// a redirect reaches. `headersFollowRedirects` (the gallery's `--location-trusted`) sends them on.
@Suite struct OriginOnlyHeadersTests {
    /// The loopback server under another origin: `localhost` instead of 127.0.0.1, same port.
    static func otherOrigin(_ url: URL) -> String {
        url.absoluteString.replacingOccurrences(of: "://127.0.0.1:", with: "://localhost:")
    }

    static func fetch(_ downloader: ImageDownloader, _ url: URL) async -> Bool {
        (try? await downloader.image(for: url)) != nil
    }

    static func routes(_ server: LoopbackServer) {
        server.route("/start", .redirect(to: otherOrigin(server.url("/elsewhere"))))
        server.route("/elsewhere", .ok(DownloaderTestKit.fakeImageBytes(100)))
        server.route("/home", .redirect(to: "/here"))
        server.route("/here", .ok(DownloaderTestKit.fakeImageBytes(100)))
    }

    @Test func aRedirectToAnotherOriginGoesWithoutTheHeader() async throws {
        let server = try await LoopbackServer.start()
        Self.routes(server)
        var config = DownloaderTestKit.config()
        config.setValue("secret", forHTTPHeaderField: "X-Token")
        let downloader = ImageDownloader(config: config)
        #expect(await Self.fetch(downloader, server.url("/start")))
        #expect(server.requests(to: "/start").first?.headers["x-token"] == "secret")
        let elsewhere = try #require(server.requests(to: "/elsewhere").first)
        #expect(elsewhere.headers["x-token"] == nil)
        #expect(elsewhere.headers["accept"] == ImageDownloaderConfig.defaultAccept)  // the defaults still go
        #expect(await Self.fetch(downloader, server.url("/home")))
        #expect(server.requests(to: "/here").first?.headers["x-token"] == "secret")  // same origin: kept
        await server.stop()
    }

    @Test func locationTrustedSendsTheHeaderOn() async throws {
        let server = try await LoopbackServer.start()
        Self.routes(server)
        var config = DownloaderTestKit.config()
        config.headersFollowRedirects = true
        config.setValue("secret", forHTTPHeaderField: "X-Token")
        let downloader = ImageDownloader(config: config)
        #expect(await Self.fetch(downloader, server.url("/start")))
        #expect(server.requests(to: "/elsewhere").first?.headers["x-token"] == "secret")
        await server.stop()
    }
}
