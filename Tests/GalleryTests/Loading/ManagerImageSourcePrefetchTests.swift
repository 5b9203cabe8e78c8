import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// Prefetches warm the cache at the cells' sizes, so they stop once those pixels are known, as the
/// cells' own loads do (`.stopWhenSufficient`): real manager, real libcurl, the loopback server.
@Suite struct ManagerImageSourcePrefetchTests {
    @Test(.timeLimit(.minutes(1)))
    func aPrefetchStopsOnceTheCellsPixelsAreKnown() async throws {
        let side = 512
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(truncatingIfNeeded: i / 4) }
        let body = TestPNG.adam7(width: side, height: side, rgba: pixels)
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"p1\""
        stub.bytesPerSecond = 2_000_000
        server.route("/a.png", stub)
        let inbox = try UIInbox<GalleryEvent>()
        let source = ManagerImageSourceTests.makeSource(inbox)
        let item = ManagerImageSourceTests.item(server.url("/a.png"))
        let cell = PixelSize(width: 64, height: 64)  // 1/8 of the image: its first Adam7 pass is enough
        source.prefetch(PrefetchRequest(index: 0, target: cell), item: item)
        #expect(await server.waitUntil { $0.first { $0.path == "/a.png" }.map { $0.finished || $0.clientDisconnectedEarly } == true })
        let sent = server.requests(to: "/a.png").first?.bytesSent ?? .max
        #expect(sent < body.count / 8, "the prefetch fetched \(sent) of \(body.count) bytes")
        let deadline = ContinuousClock.now + .seconds(10)
        while source.cachedImage(for: item, targetSize: cell) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(source.cachedImage(for: item, targetSize: cell)?.size == cell)
        source.cancelAll()
        await server.stop()
    }

    /// A scroll's cancels start no waiting prefetch: the binds of the new screen come right after
    /// them, often for the very items prefetched. Started first, such a prefetch raced the bind's own
    /// load and fetched the image a second time (6 of 312 images in `sdgallery-bench scroll`).
    @Test(.timeLimit(.minutes(1)))
    func cancellingTheVisibleLoadsStartsNoWaitingPrefetch() async throws {
        let server = try await LoopbackServer.start()
        let body = TestPNG.adam7(width: 96, height: 96, rgba: Self.noise(side: 96, seed: 7))  // about 37 KB
        for name in ["a", "b", "c"] {
            var stub = StubResponse.ok(body, contentType: "image/png")
            stub.bytesPerSecond = name == "b" ? nil : 4_000  // a and c stay loading for seconds
            server.route("/\(name).png", stub)
        }
        let cell = PixelSize(width: 64, height: 64)
        let requestedWhileLoading = try await Blocking.run { () throws -> Int in
            let inbox = try UIInbox<GalleryEvent>()
            inbox.claimOwnership()
            let source = ManagerImageSourceTests.makeSource(inbox)
            defer { source.cancelAll() }
            source.bind(slot: SlotID(0), item: ManagerImageSourceTests.item(server.url("/a.png")), targetSize: cell, options: []) { _ in }
            source.prefetch(PrefetchRequest(index: 1, target: cell), item: ManagerImageSourceTests.item(server.url("/b.png")))
            // The user scrolls: the slot's load is cancelled and the slot bound to the next item.
            source.cancel(slot: SlotID(0))
            source.bind(slot: SlotID(0), item: ManagerImageSourceTests.item(server.url("/c.png")), targetSize: cell, options: []) { _ in }
            inbox.runWork(until: { (server.requests(to: "/c.png").first?.bytesSent ?? 0) >= 400 }, deadline: Date().addingTimeInterval(20))
            return server.requests(to: "/b.png").count
        }
        #expect(server.requests(to: "/c.png").first.map { $0.bytesSent >= 400 } == true)
        #expect(requestedWhileLoading == 0, "the prefetch started while the new screen's load ran")
        await server.stop()
    }

    /// A started prefetch runs from its start (it looks in the caches first: no download counts it
    /// yet) until its image is cached, and says when it ends (`onSettled`, which wakes the loop):
    /// the settled signal waits for it. Before, the gallery called a screen settled in the moment
    /// between releasing its prefetches and their downloads starting, and the xterm oracle's
    /// screenshot caught the status bar's "2 active" that came right after.
    @Test(.timeLimit(.minutes(1)))
    func aStartedPrefetchRunsUntilItsImageIsCachedAndSaysWhenItEnds() async throws {
        let server = try await LoopbackServer.start()
        var stub = StubResponse.ok(TestPNG.make(width: 64, height: 64, rgba: Self.noise(side: 64, seed: 11)), contentType: "image/png")
        stub.bytesPerSecond = 40_000  // about half a second
        server.route("/a.png", stub)
        let item = ManagerImageSourceTests.item(server.url("/a.png"))
        let cell = PixelSize(width: 64, height: 64)
        let ended = Locked(0)
        let seen = try await Blocking.run { () throws -> (held: Bool, started: Bool, ended: Bool, endings: Int, cached: Bool) in
            let inbox = try UIInbox<GalleryEvent>()
            inbox.claimOwnership()
            let source = ManagerImageSourceTests.makeSource(inbox)
            defer { source.cancelAll() }
            source.onSettled = { ended.withLock { $0 += 1 } }
            source.holdPrefetches(true)
            source.prefetch(PrefetchRequest(index: 0, target: cell), item: item)
            let held = source.prefetchesRunning
            source.holdPrefetches(false)
            let started = source.prefetchesRunning
            inbox.runWork(until: { ended.withLock { $0 } > 0 }, deadline: Date().addingTimeInterval(20))
            return (held, started, source.prefetchesRunning, ended.withLock { $0 }, source.cachedImage(for: item, targetSize: cell) != nil)
        }
        #expect(!seen.held, "a held prefetch has not started")
        #expect(seen.started, "a released prefetch runs before its download counts")
        #expect(seen.endings == 1 && !seen.ended, "ended \(seen.endings) times; running after: \(seen.ended)")
        #expect(seen.cached)
        await server.stop()
    }

    /// `--no-progressive` holds for a cell that joins a prefetch's download: partial images go to
    /// the requests that ask for them, so the joined cell gets none although the prefetch (which
    /// always decodes as it goes) asked. A guard: a review suspected the joiner took the prefetch's.
    @Test(.timeLimit(.minutes(1)))
    func aCellJoiningAPrefetchShowsNoPartialImageWithoutProgressive() async throws {
        let server = try await LoopbackServer.start()
        let side = 96
        var stub = StubResponse.ok(TestPNG.adam7(width: side, height: side, rgba: Self.noise(side: side, seed: 5)), contentType: "image/png")
        stub.bytesPerSecond = 40_000  // about a second: the bind joins early, the passes arrive after
        server.route("/a.png", stub)
        let item = ManagerImageSourceTests.item(server.url("/a.png"))
        let full = PixelSize(width: side, height: side)  // the whole image: no early stop
        let updates = try await Blocking.run { () throws -> [String] in
            let inbox = try UIInbox<GalleryEvent>()
            inbox.claimOwnership()
            let source = ManagerImageSourceTests.makeSource(inbox)  // defaults without .progressiveLoad
            defer { source.cancelAll() }
            source.prefetch(PrefetchRequest(index: 0, target: full), item: item)
            inbox.runWork(until: { (server.requests(to: "/a.png").first?.bytesSent ?? 0) > 0 }, deadline: Date().addingTimeInterval(20))
            var seen: [String] = []
            source.bind(slot: SlotID(0), item: item, targetSize: full, options: []) { seen.append(ManagerImageSourceTests.describe($0)) }
            inbox.runWork(until: { seen.contains { $0.hasPrefix("final") || $0.hasPrefix("failed") } }, deadline: Date().addingTimeInterval(30))
            return seen
        }
        #expect(server.requests(to: "/a.png").count == 1, "the cell joined the prefetch's download")
        #expect(updates.last == "final \(side)x\(side)", "\(updates)")
        #expect(!updates.contains("partial"), "partial images despite --no-progressive: \(updates)")
        await server.stop()
    }

    /// RGBA noise, `side`×`side` (incompressible: a transfer of it takes its size on the wire).
    static func noise(side: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<(side * side * 4)).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

}
