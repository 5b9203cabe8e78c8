import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// Requests share a transfer only when it is the same transfer (`TransferKey`): same URL, same headers
/// sent, same transfer options. A joiner used to take the first request's headers: a plain load
/// joining a revalidation of its URL got the 304 meant for the revalidation, and no image.
@Suite struct TransferKeyTests {
    static let etag = "\"v1\""

    /// `/a`: a slow fake image with an ETag (a matching `If-None-Match` gets 304 at once).
    static func server() async throws -> LoopbackServer {
        let server = try await LoopbackServer.start()
        var image = DownloaderTestKit.slowImage(size: 32 * 1024, seconds: 0.5)
        image.etag = etag
        server.route("/a", image)
        return server
    }

    @Test func aRevalidationAndAPlainLoadOfOneURLAreTwoTransfersAndThePlainOneGetsItsImage() async throws {
        let server = try await Self.server()
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let plain = ResultRecorder(), conditional = ResultRecorder()
        var revalidation = ImageRequest(url: server.url("/a"))
        revalidation.headers = HTTPValidators(etag: Self.etag).conditionalHeaders
        // The plain load first, so the revalidation would have joined its transfer, and the other way round.
        downloader.downloadImage(with: ImageRequest(url: server.url("/a"))) { plain.record($0) }
        downloader.downloadImage(with: revalidation) { conditional.record($0) }
        #expect(await plain.wait(count: 1))
        #expect(await conditional.wait(count: 1))
        #expect((try? plain.all.first?.get().image) != nil, "the plain load got \(String(describing: plain.all.first))")
        #expect(server.requests(to: "/a").count == 2)
        #expect(server.requests(to: "/a").filter { $0.header("If-None-Match") == Self.etag }.count == 1)
        if case .failure(.notModified) = conditional.all.first {} else { Issue.record("the revalidation got \(String(describing: conditional.all.first)), not 304") }

        let later = ResultRecorder()
        downloader.downloadImage(with: revalidation) { _ in }
        downloader.downloadImage(with: ImageRequest(url: server.url("/a"))) { later.record($0) }
        #expect(await later.wait(count: 1))
        #expect((try? later.all.first?.get().image) != nil)
        #expect(await downloader.untilIdle())
        await server.stop()
    }

    @Test func twoRequestsWithDifferentHeadersAreTwoTransfersEachWithItsOwn() async throws {
        let server = try await Self.server()
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let results = ResultRecorder()
        for token in ["one", "two", "two"] {
            var request = ImageRequest(url: server.url("/a"))
            request.headers = ["X-Token": token]
            downloader.downloadImage(with: request) { results.record($0) }
        }
        #expect(await results.wait(count: 3))
        #expect(results.all.allSatisfy { (try? $0.get().image) != nil })
        let sent = server.requests(to: "/a").compactMap { $0.header("X-Token") }.sorted()
        #expect(sent == ["one", "two"], "the equal ones share a transfer, the other has its own")
        #expect(downloader.statistics.snapshot.coalesced == 1)
        await server.stop()
    }

    @Test func theKeyIsTheURLTheHeadersSentAndTheTransferOptions() {
        let url = URL(string: "http://h/a")!
        let plain = TransferKey(url: url, headers: [("Accept", "image/*")], transfer: [])
        #expect(plain == TransferKey(url: url, headers: [("accept", "image/*")], transfer: []))
        #expect(plain != TransferKey(url: url, headers: [("Accept", "image/*"), ("If-None-Match", "\"v1\"")], transfer: []))
        #expect(plain != TransferKey(url: url, headers: [("Accept", "image/*")], transfer: [.allowInvalidSSLCertificates]))
        #expect(plain != TransferKey(url: url, headers: [("Accept", "image/*")], transfer: [.handleCookies]))
        #expect(plain != TransferKey(url: URL(string: "http://user:pw@h/a")!, headers: [("Accept", "image/*")], transfer: []))
    }
}
