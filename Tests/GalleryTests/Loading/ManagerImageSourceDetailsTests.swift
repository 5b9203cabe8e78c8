import Foundation
import ImageCodecs
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// The caption and full view tell a file's format and bytes whichever tier served it: the network,
/// the memory cache (no bytes in hand) or the disk's decoded-thumbnail tier (no original read).
@Suite struct ManagerImageSourceDetailsTests {
    @Test(.timeLimit(.minutes(1)))
    func memoryAndThumbnailHitsKnowTheFormatAndBytes() async throws {
        let jpeg = try Fixtures.data("codecs/jpeg/baseline.jpg")
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(jpeg, contentType: "image/jpeg")
        stub.headers["Cache-Control"] = "max-age=600"
        server.route("/photo.jpg", stub)
        let url = server.url("/photo.jpg")
        let directory = try Fixtures.temporaryDirectory("details")
        let details = try await Blocking.run { () throws -> [ImageDetails] in
            // A first run downloads the image, then shows it again from memory; a second run (a new
            // process: empty memory) reads the thumbnail the first one kept on disk.
            var shown: [ImageDetails] = []
            for (run, binds) in [(0, 2), (1, 1)] {
                let inbox = try UIInbox<GalleryEvent>()
                inbox.claimOwnership()
                var config = ImageCacheConfig()
                config.directory = directory
                config.fsyncDiskWrites = false
                let manager = ImageManager(cache: ImageCache(config: config), downloader: ImageDownloader())
                let source = ManagerImageSource(manager: manager, inbox: inbox)
                let deadline = Date().addingTimeInterval(30)
                for slot in 0..<binds {
                    let before = shown.count
                    source.bind(slot: SlotID(run * 10 + slot), item: Self.item(url), targetSize: PixelSize(width: 16, height: 16), options: []) { update in
                        if case .final(_, let details) = update { shown.append(details) }
                    }
                    inbox.runWork(until: { shown.count != before }, deadline: deadline)
                }
                source.cancelAll()
                manager.cache.waitUntilIdle()
                if run == 0 { #expect(manager.cache.diskCount == 2) }  // the original and its 16×16 thumbnail
            }
            return shown
        }
        #expect(details.map(\.origin) == ["network", "network", "disk"])
        for shown in details {
            #expect(shown.byteCount == Int64(jpeg.count))
            #expect(shown.format == "JPEG")
            #expect(shown.pixelSize == details.first?.pixelSize)
        }
        await server.stop()
    }

    static func item(_ url: URL) -> GalleryItem { GalleryItem(entry: URLListEntry(line: 1, location: .remote(url))) }
}
