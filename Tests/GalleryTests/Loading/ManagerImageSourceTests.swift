import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// The one binding path of a cell: `ManagerImageSource` over a real manager, real libcurl and the
/// loopback server, driven by a UI thread of the test's own (the inbox's owner, as in the frame
/// loop). The slot's `ImageSlot` is the only place that decides staleness, and an update reaches the
/// cell in one trip through the inbox.
@Suite struct ManagerImageSourceTests {
    static let red = TestPNG.solid(width: 32, height: 32, rgba: (255, 0, 0, 255))
    static let blue = TestPNG.solid(width: 48, height: 32, rgba: (0, 0, 255, 255))

    /// A completion that is already queued in the inbox when its slot is rebound never reaches the
    /// cell; the new binding's does.
    @Test(.timeLimit(.minutes(1)))
    func aCompletionQueuedBeforeTheRebindIsDropped() async throws {
        let server = try await LoopbackServer.start()
        server.route("/red.png", .ok(Self.red, contentType: "image/png"))
        server.route("/blue.png", .ok(Self.blue, contentType: "image/png"))
        let red = server.url("/red.png"), blue = server.url("/blue.png")
        let seen = try await Blocking.run { try Self.rebindWhileQueued(first: red, second: blue) }
        #expect(seen.first == [], "the first load's updates reached the cell: \(seen.first)")
        #expect(seen.second.last == "final 48x32", "\(seen.second)")
        await server.stop()
    }

    /// Every update of a load crosses to the UI thread once: each drained inbox event delivers at most
    /// one update, and delivering it posts nothing more.
    @Test(.timeLimit(.minutes(1)))
    func eachUpdateIsOneInboxEvent() async throws {
        let server = try await LoopbackServer.start()
        server.route("/red.png", .ok(Self.red, contentType: "image/png"))
        let url = server.url("/red.png")
        let counts = try await Blocking.run { try Self.countTrips(url) }
        #expect(counts.updates >= 1)
        #expect(counts.events == counts.updates, "events \(counts.events), updates \(counts.updates)")
        #expect(counts.leftOver == 0)
        await server.stop()
    }

    /// A stale cached image is shown at once; when its revalidation fails (the server answers 503)
    /// the cell keeps it (`notModified`), it does not turn into a failure.
    @Test(.timeLimit(.minutes(1)))
    func aFailedRevalidationKeepsTheCachedImage() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(Self.red, contentType: "image/png")
        stub.etag = "\"r1\""
        stub.headers["Cache-Control"] = "no-cache"
        server.route("/red.png", stub)
        let url = server.url("/red.png")
        let seen = try await Blocking.run {
            try Self.bindTwice(url) { server.route("/red.png", .status(503)) }
        }
        #expect(seen.first.last == "final 32x32", "\(seen.first)")
        #expect(seen.second == ["final 32x32", "notModified"], "\(seen.second)")
        await server.stop()
    }

    /// An image this run downloaded (as a prefetch does) and then shown from the memory cache is not a
    /// cache hit: an empty cache showed "320 cached" and `--stats` "384 memory hits".
    @Test(.timeLimit(.minutes(1)))
    func anImageThisRunDownloadedIsNoCacheHitWhenShownFromMemory() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(Self.red, contentType: "image/png")
        stub.headers["Cache-Control"] = "max-age=600"
        server.route("/fresh.png", stub)
        let url = server.url("/fresh.png")
        let origins = try await Blocking.run { () throws -> [String] in
            let inbox = try UIInbox<GalleryEvent>()
            inbox.claimOwnership()
            let source = Self.makeSource(inbox)
            var origins: [String] = []
            let deadline = Date().addingTimeInterval(30)
            for slot in 0..<2 {
                source.bind(slot: SlotID(slot), item: Self.item(url), targetSize: PixelSize(width: 64, height: 64), options: []) { update in
                    if case .final(_, let details) = update { origins.append(details.origin ?? "?") }
                }
                inbox.runWork(until: { origins.count > slot }, deadline: deadline)
            }
            #expect(source.counters.snapshot.memoryHits == 0)
            source.cancelAll()
            return origins
        }
        #expect(origins == ["network", "network"])
        await server.stop()
    }

    /// Binds `url` to one slot until its load settles, calls `between`, binds it again (a cache hit
    /// under revalidation) and collects until an update follows the cached `final`.
    static func bindTwice(_ url: URL, between: () -> Void) throws -> (first: [String], second: [String]) {
        let inbox = try UIInbox<GalleryEvent>()
        inbox.claimOwnership()
        let source = makeSource(inbox)
        let target = PixelSize(width: 64, height: 64)
        var first: [String] = [], second: [String] = []
        let deadline = Date().addingTimeInterval(40)
        source.bind(slot: SlotID(0), item: item(url), targetSize: target, options: []) { first.append(describe($0)) }
        inbox.runWork(until: { first.contains { $0.hasPrefix("final") || $0.hasPrefix("failed") } }, deadline: deadline)
        between()
        source.bind(slot: SlotID(0), item: item(url), targetSize: target, options: []) { second.append(describe($0)) }
        inbox.runWork(until: { second.count >= 2 && !second.last!.hasPrefix("progress") }, deadline: deadline)
        source.cancelAll()
        return (first, second)
    }

    static func makeSource(_ inbox: UIInbox<GalleryEvent>, defaults: ImageRequest = ImageRequest(url: nil)) -> ManagerImageSource {
        var cacheConfig = ImageCacheConfig()
        cacheConfig.shouldUseDiskCache = false
        let manager = ImageManager(cache: ImageCache(config: cacheConfig), downloader: ImageDownloader())
        return ManagerImageSource(manager: manager, inbox: inbox, defaults: defaults)
    }

    static func item(_ url: URL) -> GalleryItem { GalleryItem(entry: URLListEntry(line: 1, location: .remote(url))) }

    static func describe(_ update: CellImageUpdate) -> String {
        switch update {
        case .progress: return "progress"
        case .partial: return "partial"
        case .final(let image, _): return "final \(image.width)x\(image.height)"
        case .failed(let message): return "failed \(message)"
        case .notModified: return "notModified"
        }
    }

    static func rebindWhileQueued(first: URL, second: URL) throws -> (first: [String], second: [String]) {
        let inbox = try UIInbox<GalleryEvent>()
        inbox.claimOwnership()
        let source = makeSource(inbox)
        var firstSeen: [String] = [], secondSeen: [String] = []
        let target = PixelSize(width: 64, height: 64)
        source.bind(slot: SlotID(0), item: item(first), targetSize: target, options: []) { firstSeen.append(describe($0)) }
        // Wait, without draining, until the first load's completion sits in the inbox: the manager
        // posts it there once the image is decoded (no progress events without a progress read).
        let deadline = Date().addingTimeInterval(30)
        while source.manager.isRunning, Date() < deadline {
            var wake = pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, 20)
        }
        // Rebind the slot before the queued completion runs.
        source.bind(slot: SlotID(0), item: item(second), targetSize: target, options: []) { secondSeen.append(describe($0)) }
        inbox.runWork(until: { secondSeen.contains { $0.hasPrefix("final") || $0.hasPrefix("failed") } }, deadline: deadline)
        for case .work(let work) in inbox.drain() { work() }
        source.cancelAll()
        return (firstSeen, secondSeen)
    }

    static func countTrips(_ url: URL) throws -> (events: Int, updates: Int, leftOver: Int) {
        let inbox = try UIInbox<GalleryEvent>()
        inbox.claimOwnership()
        let source = makeSource(inbox, defaults: ImageRequest(url: nil, delivery: .progressiveLoad))
        var updates = 0, events = 0, done = false
        source.bind(slot: SlotID(0), item: item(url), targetSize: PixelSize(width: 64, height: 64), options: []) { update in
            updates += 1
            if case .final = update { done = true }
        }
        let deadline = Date().addingTimeInterval(30)
        while !done, Date() < deadline {
            var wake = pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, 20)
            for event in inbox.drain() {
                events += 1
                if case .work(let work) = event { work() }
            }
        }
        let leftOver = inbox.drain().count
        source.cancelAll()
        return (events, updates, leftOver)
    }
}
