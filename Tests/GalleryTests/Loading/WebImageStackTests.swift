import Foundation
import Testing
import TestSupport
@testable import Gallery
@testable import WebImage

@Suite struct WebImageStackTests {
    @Test func demoImagesKeepTheirCacheKeysAcrossRuns() async throws {
        var options = GalleryOptions()
        options.demo = true
        options.cacheDirectory = try Fixtures.temporaryDirectory("stack").path
        let stack = WebImageStack(options: options)
        // Starting the demo waits on a semaphore for a task that itself needs the cooperative pool:
        // on a pool thread that wait held one of the two threads for seconds, starving every test
        // that uses the loopback server. It runs on a thread of its own.
        let demo = options
        let list = try #require(try await Blocking.run { stack.components.demoList(demo) })
        let url = try #require(list.entries.first?.location.url)
        // The port is random per run; the key must not contain it.
        #expect(stack.manager.cacheKey(for: url) == "sdgallery-demo:" + url.path)
        #expect(!stack.manager.cacheKey(for: url).contains(String(url.port ?? 0)))
        let other = try #require(URL(string: "https://example.com/a.png"))
        #expect(stack.manager.cacheKey(for: other) == "https://example.com/a.png")
    }

    /// `--disk-limit` covers everything on disk (issue 30: the partials were not counted): an eighth
    /// of it, at most 64 MB, is the partials', the rest the entries'.
    @Test(arguments: [(nil, 448 << 20, 64 << 20), (16, 14 << 20, 2 << 20), (1024, 960 << 20, 64 << 20)] as [(Int?, Int, Int)])
    func theDiskLimitCoversThePartials(limitMB: Int?, entries: Int, partials: Int) throws {
        var options = GalleryOptions()
        options.cacheDirectory = try Fixtures.temporaryDirectory("stack-limit").path
        options.diskLimitMB = limitMB
        let manager = WebImageStack.makeManager(options)
        #expect(manager.cache.config.maxDiskSize == entries)
        #expect(manager.downloader.config.maxPartialBytes == partials)
        #expect(entries + partials == (limitMB ?? 512) << 20)
    }

    /// A `--print` sheet asks for the early stop and no partial renders (nobody sees them);
    /// with `--refresh`, for neither (a revalidation gets the whole original).
    @Test func printAsksForTheStopWithoutPartials() {
        var options = GalleryOptions()
        #expect(WebImageStack.requestDefaults(options).delivery.contains(.progressiveLoad))
        #expect(WebImageStack.printRequest(options).delivery.contains(.stopWhenSufficient))
        #expect(!WebImageStack.printRequest(options).delivery.contains(.progressiveLoad))
        options.refresh = true
        #expect(WebImageStack.printRequest(options).delivery.isDisjoint(with: [.stopWhenSufficient, .progressiveLoad]))
    }

    @Test(.timeLimit(.minutes(1)))
    func printLoadsGetTheManagerOptionsRefreshRevalidates() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(TestPNG.solid(width: 24, height: 16, rgba: (0, 0, 255, 255)), contentType: "image/png")
        stub.etag = "\"blue-1\""
        server.route("/blue.png", stub)
        var options = GalleryOptions()
        options.cacheDirectory = try Fixtures.temporaryDirectory("stack-print").path
        options.refresh = true
        #expect(WebImageStack.requestDefaults(options).cache.refreshCached)
        let stack = WebImageStack(options: options)
        let load = stack.components.loadForPrint
        let entry = try #require(URLList.parse("\(server.url("/blue.png").absoluteString) Blue\n", baseDirectory: URL(fileURLWithPath: "/")).entries.first)
        let first = await load(entry, nil)
        // The second sheet revalidates the cached copy (before: served from the cache, no request)
        // and keeps it on 304.
        let second = await load(entry, nil)
        for result in [first, second] {
            guard case .success(let (image, _)) = result else { Issue.record("load failed: \(result)"); continue }
            #expect(image.width == 24 && image.height == 16)
        }
        let revalidated = await server.waitUntil(timeout: .seconds(8)) { log in
            log.contains { $0.path == "/blue.png" && $0.header("If-None-Match") == "\"blue-1\"" && $0.status == 304 }
        }
        #expect(revalidated, "no conditional request: \(server.requests.map { ($0.status, $0.header("If-None-Match") ?? "-") })")
        await server.stop()
    }

    /// Partials of cancelled transfers live in `<cache dir>/partials` (so a later run resumes them),
    /// the disk cache does not count them as entries, and `--clear-cache` removes them too.
    @Test func partialsLiveInTheCacheDirectoryAndClearCacheRemovesThem() async throws {
        var options = GalleryOptions()
        let directory = try Fixtures.temporaryDirectory("stack-partials")
        defer { try? FileManager.default.removeItem(at: directory) }
        options.cacheDirectory = directory.path
        let stack = WebImageStack(options: options)
        let manager = stack.manager
        let url = try #require(URL(string: "http://127.0.0.1:1/half.png"))
        manager.downloader.partials.keep(PartialDownload(data: Data(repeating: 1, count: 500), validator: "\"e\"", totalLength: 1000), for: url)
        manager.downloader.partials.waitUntilIdle()
        let partials = directory.appendingPathComponent("partials")
        let name = DiskCache.fileName(forKey: url.absoluteString, extension: "partial")
        #expect(try FileManager.default.contentsOfDirectory(atPath: partials.path) == [name])
        let disk = try #require(manager.cache.disk)
        disk.removeExpired()
        #expect(disk.count == 0 && disk.totalSize == 0)
        let cleared = options
        #expect(try await Blocking.run { stack.components.clearCache(cleared) } == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: partials.path).isEmpty)

        // Without the disk cache they stay in memory.
        options.noDiskCache = true
        let memoryOnly = WebImageStack(options: options).manager.downloader
        memoryOnly.partials.keep(PartialDownload(data: Data(repeating: 1, count: 500), validator: "\"e\"", totalLength: 1000), for: url)
        memoryOnly.partials.waitUntilIdle()
        #expect(memoryOnly.partials.urls == [url])
        #expect(try FileManager.default.contentsOfDirectory(atPath: partials.path).isEmpty)
    }
}

/// A refused cache folder turns off every on-disk tier, partials too (issue 21).
@Suite struct WebImageStackCacheRefusalTests {
    @Test(.enabled(if: geteuid() == 0, "needs root to give a folder away"))
    func aForeignCacheFolderKeepsPartialsInMemory() throws {
        let root = try Fixtures.temporaryDirectory("stack-foreign")
        defer { try? FileManager.default.removeItem(at: root) }
        let cacheFolder = root.appendingPathComponent("cache"), attacker = root.appendingPathComponent("attacker")
        for folder in [cacheFolder, attacker] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.createSymbolicLink(at: cacheFolder.appendingPathComponent("partials"), withDestinationURL: attacker)
        #expect(chown(cacheFolder.path, 65534, 65534) == 0)
        var options = GalleryOptions()
        options.cacheDirectory = cacheFolder.path
        let manager = WebImageStack(options: options).manager
        #expect(manager.cache.disk == nil && manager.cache.diskError != nil)
        let url = try #require(URL(string: "http://127.0.0.1:1/half.png"))
        manager.downloader.partials.keep(PartialDownload(data: Data(repeating: 1, count: 500), validator: "\"e\"", totalLength: 1000), for: url)
        manager.downloader.partials.waitUntilIdle()
        #expect(manager.downloader.partials.urls == [url])
        #expect(try FileManager.default.contentsOfDirectory(atPath: attacker.path).isEmpty)
    }
}
