import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// `Accept` names what the coders decode, best first (`ImageCoderRegistry.acceptHeader`), so a server
/// that negotiates sends the smaller format, and the picture is the same.
@Suite struct ContentNegotiationTests {
    /// One picture as AVIF, WebP and JPEG (Tests/Fixtures/codecs/negotiate), smaller first: a CDN's
    /// order of preference.
    static let variants: [(type: String, file: String)] = [
        ("image/avif", "picture.avif"), ("image/webp", "picture.webp"), ("image/jpeg", "picture.jpg"),
    ]

    static func negotiatingServer() async throws -> LoopbackServer {
        let server = try await LoopbackServer.start()
        let bodies = try Dictionary(uniqueKeysWithValues: variants.map { ($0.type, try Fixtures.data("codecs/negotiate/\($0.file)")) })
        server.route("/picture") { request in
            guard let type = ContentNegotiation.choose(variants.map(\.type), accept: request.header("Accept")), let body = bodies[type] else {
                return .status(406)
            }
            return .ok(body, contentType: type)
        }
        return server
    }

    @Test func theHeaderNamesEveryDecodedFormatBeforeAnyOtherImage() {
        let ranges = ImageCoderRegistry.acceptHeader.split(separator: ",").map(String.init)
        #expect(Array(ranges.prefix(ImageCoderRegistry.coders.count)) == ImageCoderRegistry.coders.map(\.mediaType))
        #expect(ranges.last == "image/*;q=0.8")
        #expect(ImageDownloaderConfig.defaultAccept == ImageCoderRegistry.acceptHeader)
        // Only formats this build decodes are asked for by name.
        for coder in ImageCoderRegistry.coders { #expect(coder.format.isDecodable) }
    }

    @Test func aNegotiatingServerSendsTheBestFormatDecodedHereAndItIsTheSamePicture() async throws {
        let server = try await Self.negotiatingServer()
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let image = try #require(try await downloader.image(for: server.url("/picture")).image)
        // The first variant (in the server's order) among the formats with a coder.
        let decodable = Self.variants.filter { variant in ImageCoderRegistry.coders.contains { $0.mediaType == variant.type } }
        let best = try #require(decodable.first)
        let sent = try Fixtures.data("codecs/negotiate/\(best.file)")
        #expect(image.sourceFormat == ImageFormat.sniff(sent))
        #expect(image.sourceByteCount == sent.count)
        #expect(sent.count < (try Fixtures.data("codecs/negotiate/picture.jpg")).count)
        #expect(server.requests(to: "/picture").first?.header("Accept") == ImageCoderRegistry.acceptHeader)
        // The same picture as the JPEG: mean absolute difference of a few levels.
        let jpeg = try ImageCoders.decode(try Fixtures.data("codecs/negotiate/picture.jpg"))
        #expect(jpeg.size == image.size)
        let mad = zip(jpeg.pixels, image.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(mad) / Double(max(1, jpeg.pixels.count)) < 6, "mean difference \(Double(mad) / Double(jpeg.pixels.count))")
        await server.stop()
    }

    @Test func theServersChoiceFollowsWeightsThenItsOwnOrder() {
        let types = Self.variants.map(\.type)
        #expect(ContentNegotiation.choose(types, accept: "image/webp,image/jpeg,image/*;q=0.8") == "image/webp")
        #expect(ContentNegotiation.choose(types, accept: "image/avif,image/webp,image/*;q=0.8") == "image/avif")
        #expect(ContentNegotiation.choose(types, accept: "image/jpeg") == "image/jpeg")
        #expect(ContentNegotiation.choose(types, accept: "image/*") == "image/avif")
        #expect(ContentNegotiation.choose(types, accept: "image/avif;q=0,image/*;q=0.5") == "image/webp")
        #expect(ContentNegotiation.choose(types, accept: "text/html") == nil)
    }
}
