import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// The disk cache's early tier (`EarlyImageEntry`): a cell's early image (here a progressive JPEG's
/// 1/8 scale) outlives the process, so a second manager on the same cache directory — a later run —
/// shows the cell from disk with no request; anything needing more fetches (resumes) the original.
/// Against the real loopback server, which counts each request's bytes.
@Suite struct EarlyImageCacheTests {
    static let cjpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg")
    /// At most 1/8 of 1024×768 per axis: the DC scans are enough.
    static let cell = PixelSize(width: 120, height: 90)
    static let cellOptions: ImageRequest.DeliveryOptions = [.progressiveLoad, .stopWhenSufficient]

    /// A kit whose cache keeps partials in its folder (as the gallery does), serving `body` at
    /// `path` with ETag `etag` and `cacheControl`, after a first manager loaded the cell: its early
    /// image is on disk, its partial in `partials`.
    static func kitAfterACell(_ body: Data, path: String, etag: String, cacheControl: String) async throws -> (ManagerTestKit, URL, Image) {
        let kit = try await ManagerTestKit.make(partials: true)
        kit.server.route(path, stub(body, etag: etag, cacheControl: cacheControl, bytesPerSecond: 1_000_000))
        let url = kit.server.url(path)
        let first = await SufficientDownloadTests.load(kit, url, delivery: cellOptions, size: cell)
        let image = try #require(first.last?.image)
        #expect(first.last?.isTerminal == true && image.size == cell && image.earlyTier == .scale(denominator: 8))
        await settle(kit, path)
        kit.manager.cache.waitUntilIdle()
        kit.manager.downloader.partials.waitUntilIdle()
        #expect(kit.manager.cache.disk?.entry(forKey: kit.manager.cacheKey(for: url)) == nil)  // not the original
        return (kit, url, image)
    }

    static func stub(_ body: Data, etag: String, cacheControl: String, bytesPerSecond: Int? = nil) -> StubResponse {
        var stub = StubResponse.ok(body, contentType: "image/jpeg")
        stub.etag = etag
        stub.headers["Cache-Control"] = cacheControl
        stub.bytesPerSecond = bytesPerSecond
        return stub
    }

    /// Waits until every request to `path` has ended.
    static func settle(_ kit: ManagerTestKit, _ path: String) async {
        _ = await kit.server.waitUntil { $0.filter { $0.path == path }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
    }

    /// A second manager on the kit's directory: new process state, the same disk cache and partials.
    static func laterRun(_ kit: ManagerTestKit) -> ManagerTestKit {
        ManagerTestKit(server: kit.server, directory: kit.directory,
                       manager: ManagerTestKit.makeManager(directory: kit.directory, clock: kit.clock, partials: true), clock: kit.clock)
    }

    /// A later run's cell load of a URL whose cached image is revalidated: the cached image, then
    /// what the revalidation brings.
    static func revalidatedCell(_ later: ManagerTestKit, _ url: URL) async -> [ImageLoadEvent] {
        let results = LoadRecorder()
        later.manager.loadImage(with: ImageRequest(url: url, targetSize: cell, delivery: cellOptions)) { results.recordLoad($0) }
        _ = await results.wait(count: 2, timeout: .seconds(30))
        return results.all
    }

    static func earlyKey(_ kit: ManagerTestKit, _ url: URL) -> String {
        EarlyImageEntry.diskKey(for: ImageCacheKey(urlKey: kit.manager.cacheKey(for: url)))
    }

    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func aLaterRunShowsTheCellFromTheEarlyEntryWithNoRequestAndTheFullViewResumesTheOriginal() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let (kit, url, cold) = try await Self.kitAfterACell(body, path: "/e.jpg", etag: "\"e1\"", cacheControl: "max-age=3600")
        let coldRequests = kit.server.requests(to: "/e.jpg")
        let coldBytes = coldRequests.reduce(0) { $0 + $1.bytesSent }

        let later = Self.laterRun(kit)
        let warm = await SufficientDownloadTests.load(later, url, delivery: Self.cellOptions, size: Self.cell)
        let final = try #require(warm.last)
        print("cold: \(coldRequests.count) requests, \(coldBytes) of \(body.count) B; warm: \(kit.server.requests(to: "/e.jpg").count - coldRequests.count) requests")
        #expect(final.isTerminal && final.error == nil && !final.isRevalidating && final.cacheType == .disk)
        #expect(final.image?.size == Self.cell && final.image?.earlyTier == .scale(denominator: 8))
        let samePixels = final.image?.pixels == cold.pixels
        #expect(samePixels, "not the cold run's early image")
        #expect(final.image?.sourceSize == PixelSize(width: 1024, height: 768) && final.image?.sourceFormat == .jpeg)
        #expect(kit.server.requests(to: "/e.jpg").count == coldRequests.count, "the warm cell asked the network")

        // The full view needs more than the early image: it resumes the kept bytes and gets the original.
        let full = await SufficientDownloadTests.load(later, url, delivery: [.progressiveLoad], size: PixelSize(width: 1024, height: 768))
        #expect(full.last?.data == body)
        #expect(full.last?.image?.size == PixelSize(width: 1024, height: 768) && full.last?.image?.earlyTier == nil)
        let resumed = try #require(kit.server.requests(to: "/e.jpg").last)
        #expect(resumed.status == 206 && resumed.header("Range")?.hasPrefix("bytes=") == true && resumed.header("Range") != "bytes=0-")
        #expect(resumed.bytesSent < body.count, "resumed \(resumed.bytesSent) B")
        later.manager.cache.waitUntilIdle()
        let disk = try #require(later.manager.cache.disk)
        #expect(disk.entry(forKey: later.manager.cacheKey(for: url))?.data == body)
        #expect(disk.entry(forKey: Self.earlyKey(later, url)) == nil, "the original supersedes the early image")
        await kit.tearDown()
    }

    /// `s` (`loadOriginal`) after a cell's load wants the file, not pixels: the early image does not
    /// answer it; the kept bytes are resumed and the whole original saved.
    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func savingTheOriginalIgnoresTheEarlyEntry() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let (kit, url, _) = try await Self.kitAfterACell(body, path: "/o.jpg", etag: "\"o1\"", cacheControl: "max-age=3600")
        let later = Self.laterRun(kit)
        let saved = await later.manager.original(url)
        #expect((try? saved?.get())?.data == body)
        #expect(kit.server.requests(to: "/o.jpg").last?.status == 206)
        await kit.tearDown()
    }

    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func aSmallerCellTakesTheEarlyImageScaledDownAndALargerOneFetches() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let (kit, url, _) = try await Self.kitAfterACell(body, path: "/s.jpg", etag: "\"s1\"", cacheControl: "max-age=3600")
        let before = kit.server.requests(to: "/s.jpg").count

        let later = Self.laterRun(kit)
        let smaller = await SufficientDownloadTests.load(later, url, delivery: Self.cellOptions, size: PixelSize(width: 60, height: 60))
        #expect(smaller.last?.image?.size == PixelSize(width: 60, height: 45) && smaller.last?.cacheType == .disk)
        #expect(kit.server.requests(to: "/s.jpg").count == before)

        // 240×180 is more than the 120×90 the early image holds (and more than 1/8): to the network.
        let larger = await SufficientDownloadTests.load(later, url, delivery: Self.cellOptions, size: PixelSize(width: 240, height: 180))
        let image = try #require(larger.last?.image)
        #expect(larger.last?.isTerminal == true && image.size == PixelSize(width: 240, height: 180))
        #expect(image.earlyTier == .scale(denominator: 4))
        #expect(kit.server.requests(to: "/s.jpg").count > before, "a larger cell took the smaller early image")
        await Self.settle(kit, "/s.jpg")
        later.manager.cache.waitUntilIdle()
        // The newer early image (1/4, 240×180) replaced the older one.
        let entry = try #require(later.manager.cache.disk?.entry(forKey: Self.earlyKey(later, url)))
        #expect(EarlyImageEntry.decode(entry.data)?.size == PixelSize(width: 240, height: 180))
        await kit.tearDown()
    }

    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func aCorruptEarlyEntryIsAMiss() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let (kit, url, _) = try await Self.kitAfterACell(body, path: "/c.jpg", etag: "\"c1\"", cacheControl: "max-age=3600")
        let earlyKey = Self.earlyKey(kit, url)
        let file = kit.directory.appendingPathComponent(DiskCache.fileName(forKey: earlyKey, extension: "bin"))
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0x5A  // a flipped byte in the pixels: the entry's CRC fails
        try bytes.write(to: file)
        // A later run loads the cell from the network, not from the entry; its manager, for the next step.
        func expectFetched(_ problem: String) async -> ManagerTestKit {
            let before = kit.server.requests(to: "/c.jpg").count
            let later = Self.laterRun(kit)
            let reloaded = await SufficientDownloadTests.load(later, url, delivery: Self.cellOptions, size: Self.cell)
            #expect(reloaded.last?.error == nil && reloaded.last?.image?.size == Self.cell && reloaded.last?.cacheType == ImageCacheType.none)
            #expect(kit.server.requests(to: "/c.jpg").count > before, "\(problem) was served")
            await Self.settle(kit, "/c.jpg")
            later.manager.cache.waitUntilIdle()
            return later
        }
        let later = await expectFetched("the corrupt early entry")

        // A well-formed entry whose payload is not an early image (a CRC cannot catch a wrong writer).
        let disk = try #require(later.manager.cache.disk)
        for payload in [Data("SDGTHMB3 not an image".utf8), DecodedThumbnail.encode(Image(width: 2, height: 2, pixels: [UInt8](repeating: 9, count: 16)),
                                                                                 sourceIdentity: "")] {
            try disk.store(payload, forKey: earlyKey, validators: HTTPValidators(etag: "\"c1\""), responseHeaders: ["cache-control": "max-age=3600"])
            _ = await expectFetched("a malformed early entry")
        }
        await kit.tearDown()
    }

    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func aChangedOriginalIsNotHiddenByTheEarlyEntry() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let changed = try await SufficientDownloadTests.jpeg(width: 1024, height: 768, flags: "-progressive") { _, _, noise in [200, 30 &+ noise, 40] }

        // Stale (`no-cache`): shown at once, then revalidated with the original's ETag; a 200 replaces it.
        let (kit, url, cold) = try await Self.kitAfterACell(body, path: "/n.jpg", etag: "\"n1\"", cacheControl: "no-cache")
        kit.server.route("/n.jpg", Self.stub(changed, etag: "\"n2\"", cacheControl: "no-cache"))
        let later = Self.laterRun(kit)
        let revalidated = await Self.revalidatedCell(later, url)
        let shownFirst = revalidated.first?.image?.pixels == cold.pixels
        #expect(revalidated.first?.isRevalidating == true && shownFirst)
        #expect(kit.server.requests(to: "/n.jpg").last?.header("If-None-Match") == "\"n1\"")
        let fresh = try #require(revalidated.last?.image)
        #expect(fresh.pixel(x: 60, y: 45).r > 150, "still the old picture: \(fresh.pixel(x: 60, y: 45))")
        later.manager.cache.waitUntilIdle()
        #expect(later.manager.cache.disk?.entry(forKey: later.manager.cacheKey(for: url))?.data == changed)
        #expect(later.manager.cache.disk?.entry(forKey: Self.earlyKey(later, url)) == nil)
        await kit.tearDown()

        // Fresh (`max-age`), and `r` (`.refreshCached`): the early image is not looked at; the original comes.
        let (kit2, url2, _) = try await Self.kitAfterACell(body, path: "/r.jpg", etag: "\"r1\"", cacheControl: "max-age=3600")
        kit2.server.route("/r.jpg", Self.stub(changed, etag: "\"r2\"", cacheControl: "max-age=3600"))
        let refresh = Self.laterRun(kit2)
        let refreshed = await SufficientDownloadTests.load(refresh, url2, delivery: Self.cellOptions, cache: .init(refreshCached: true), size: Self.cell)
        let image = try #require(refreshed.last?.image)
        #expect(refreshed.last?.data == changed && image.earlyTier == nil)
        #expect(image.pixel(x: 60, y: 45).r > 150)
        await kit2.tearDown()
    }

    @Test(.enabled(if: cjpeg, "needs cjpeg (libjpeg-turbo-progs)"))
    func aNotModifiedAnswerRenewsTheEarlyEntry() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1024, height: 768)
        let (kit, url, cold) = try await Self.kitAfterACell(body, path: "/m.jpg", etag: "\"m1\"", cacheControl: "max-age=0")
        // The same file, now fresh for an hour: the 304 carries the new lifetime.
        kit.server.route("/m.jpg", Self.stub(body, etag: "\"m1\"", cacheControl: "max-age=3600"))
        let later = Self.laterRun(kit)
        let results = await Self.revalidatedCell(later, url)
        #expect(results.first?.isRevalidating == true && results.last?.isNotModified == true)
        #expect(kit.server.requests(to: "/m.jpg").last?.status == 304)
        later.manager.cache.waitUntilIdle()

        let requests = kit.server.requests(to: "/m.jpg").count
        let third = Self.laterRun(kit)
        let renewed = await SufficientDownloadTests.load(third, url, delivery: Self.cellOptions, size: Self.cell)
        let same = renewed.last?.image?.pixels == cold.pixels
        #expect(renewed.last?.cacheType == .disk && renewed.last?.isRevalidating == false && same)
        #expect(kit.server.requests(to: "/m.jpg").count == requests, "the renewed early entry was not fresh")
        await kit.tearDown()
    }
}
