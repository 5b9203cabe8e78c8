import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImageManagerTests {
    @Test func missDownloadsStoresThenMemoryAndDiskHitsMakeNoRequest() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/red.png", color: (255, 0, 0, 255), headers: ["Cache-Control": "max-age=3600"])  // fresh: no request
        let url = kit.server.url("/red.png")
        let first = await kit.manager.results(url)
        #expect(first.count == 1)
        #expect(first.first?.image?.firstPixel == [255, 0, 0, 255])
        #expect(first.first?.cacheType == ImageCacheType.none)
        #expect(kit.server.requests(to: "/red.png").count == 1)
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 1)

        let memory = await kit.manager.results(url)
        #expect(memory.first?.cacheType == .memory)
        #expect(memory.first?.image?.firstPixel == [255, 0, 0, 255])

        kit.manager.cache.clearMemory()
        let disk = await kit.manager.results(url)
        #expect(disk.first?.cacheType == .disk)
        #expect(disk.first?.image?.firstPixel == [255, 0, 0, 255])
        #expect(kit.server.requests(to: "/red.png").count == 1)
        await kit.tearDown()
    }

    @Test func targetSizeKeysTheMemoryCache() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/big.png", color: (0, 0, 255, 255), size: 64, headers: ["Cache-Control": "max-age=3600"])
        let url = kit.server.url("/big.png")
        let thumb = await kit.manager.results(url, targetSize: PixelSize(width: 16, height: 16))
        #expect(thumb.first?.image?.size == PixelSize(width: 16, height: 16))
        let full = await kit.manager.results(url)
        #expect(full.first?.image?.size == PixelSize(width: 64, height: 64))
        #expect(full.first?.cacheType == .disk)  // decoded again from the stored bytes, not re-fetched
        #expect(kit.server.requests(to: "/big.png").count == 1)
        await kit.tearDown()
    }

    @Test func cacheMemoryOnlyWritesNothingToDisk() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/m.png", color: (1, 2, 3, 255))
        let result = await kit.manager.results(kit.server.url("/m.png"), cache: .init(store: .memoryOnly))
        #expect(result.first?.image != nil)
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 0)
        #expect(await kit.manager.results(kit.server.url("/m.png")).first?.cacheType == .memory)
        await kit.tearDown()
    }

    @Test func notFoundIsRememberedUntilRetryOrExpiry() async throws {
        let kit = try await ManagerTestKit.make()
        kit.server.route("/missing.png", .status(404, body: "nope"))
        let url = kit.server.url("/missing.png")
        let first = await kit.manager.results(url)
        guard case .download(.badStatus(_, 404, _))? = first.first?.error else {
            Issue.record("expected 404, got \(String(describing: first.first?.error))")
            return
        }
        #expect(first.first?.error?.shortDescription == "404 Not Found")
        let second = await kit.manager.results(url)
        #expect(second.first?.error == first.first?.error)
        #expect(kit.server.requests(to: "/missing.png").count == 1)

        _ = await kit.manager.results(url, cache: .init(retryFailed: true))
        #expect(kit.server.requests(to: "/missing.png").count == 2)

        kit.clock.advance(601)
        _ = await kit.manager.results(url)
        #expect(kit.server.requests(to: "/missing.png").count == 3)
        await kit.tearDown()
    }

    @Test func timeoutsAreNotRemembered() async throws {
        let kit = try await ManagerTestKit.make(downloadTimeout: 2)
        var stall = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: (9, 9, 9, 255)), contentType: "image/png")
        stall.fault = .stallAfter(bytes: 10)
        stall.stallLimit = .seconds(6)
        kit.server.route("/stall.png", stall)
        let url = kit.server.url("/stall.png")
        let result = await kit.manager.results(url)
        guard case .download(.timedOut)? = result.first?.error else {
            Issue.record("expected a timeout, got \(String(describing: result.first?.error))")
            return
        }
        #expect(kit.manager.failedURLs.error(forKey: kit.manager.cacheKey(for: url)) == nil)
        kit.serve("/stall.png", color: (9, 9, 9, 255))
        // The retry is patient: 2 s is short for the shared server on a loaded machine.
        var patient = kit.manager.downloader.config
        patient.downloadTimeout = 30
        kit.manager.downloader.replaceConfig(patient)
        #expect(await kit.manager.results(url).first?.image != nil)
        await kit.tearDown()
    }

    @Test func invalidURLsCompleteWithAnError() async throws {
        let kit = try await ManagerTestKit.make()
        for url in [nil, URL(string: "ftp://example.com/a.png"), URL(string: "http://")] as [URL?] {
            let result = await kit.manager.results(url)
            guard case .invalidURL? = result.first?.error else {
                Issue.record("expected invalidURL for \(String(describing: url))")
                continue
            }
        }
        let byString = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(string: "")) { byString.record($0) }
        #expect(await byString.wait(count: 1))
        #expect(kit.manager.isRunning == false)
        await kit.tearDown()
    }

    @Test func fileURLsLoadFromDisk() async throws {
        let kit = try await ManagerTestKit.make()
        let file = kit.directory.appendingPathComponent("local.png")
        try TestPNG.solid(width: 4, height: 4, rgba: (0, 200, 0, 255)).write(to: file)
        let result = await kit.manager.results(file)
        #expect(result.first?.image?.firstPixel == [0, 200, 0, 255])
        let missing = await kit.manager.results(kit.directory.appendingPathComponent("nope.png"))
        #expect(missing.first?.error != nil)
        #expect(kit.server.requests.isEmpty)
        await kit.tearDown()
    }

    @Test func asyncFormReturnsAndThrows() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/a.png", color: (5, 6, 7, 255))
        kit.server.route("/gone.png", .status(410))
        let result = try await kit.manager.image(for: kit.server.url("/a.png"))
        #expect(result.image.firstPixel == [5, 6, 7, 255])
        await #expect(throws: ImageLoadError.self) { try await kit.manager.image(for: kit.server.url("/gone.png")) }
        var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (1, 1, 1, 255)))
        slow.bytesPerSecond = 2000
        kit.server.route("/slow.png", slow)
        let task = Task { try await kit.manager.image(for: kit.server.url("/slow.png")) }
        #expect(await kit.server.waitUntil { !$0.filter { $0.path == "/slow.png" }.isEmpty })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        await kit.tearDown()
    }
}
