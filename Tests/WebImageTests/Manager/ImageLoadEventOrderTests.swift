import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// `ImageLoadEvent`'s order, on every path a load takes: progress and previews, at most one
/// `.revalidating`, then exactly one terminal event — `.keptCached` only after `.revalidating` —
/// and nothing after it (each load is watched until the manager, its downloader and its cache are
/// idle, so a late second terminal event would be seen).
@Suite struct ImageLoadEventOrderTests {
    /// Every event of one load (progress included), once everything the load started has ended.
    static func events(_ manager: ImageManager, _ request: ImageRequest) async -> [ImageLoadEvent] {
        let recorder = LoadRecorder()
        manager.loadImage(with: request) { recorder.record($0) }
        _ = await recorder.wait(timeout: .seconds(30)) { $0.contains { $0.isTerminal } }
        _ = await manager.untilIdle()
        return recorder.all
    }

    /// The order every load's events keep; `path` names the case in a failure.
    static func expectOrdered(_ events: [ImageLoadEvent], _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let terminals = events.indices.filter { events[$0].isTerminal }
        #expect(terminals == [events.count - 1], "\(path): terminal events at \(terminals) of \(events.count): \(events.map(Self.name))",
                sourceLocation: sourceLocation)
        let revalidating = events.indices.filter { events[$0].isRevalidating }
        #expect(revalidating.count <= 1, "\(path): \(revalidating.count) cached images under revalidation", sourceLocation: sourceLocation)
        if events.last?.isKeptCached == true {
            #expect(revalidating.count == 1, "\(path): the cached image was kept without one", sourceLocation: sourceLocation)
        }
        if let first = revalidating.first {
            #expect(!events[..<first].contains { if case .preview = $0 { true } else { false } },
                    "\(path): a partial image before the cached one", sourceLocation: sourceLocation)
        }
    }

    static func name(_ event: ImageLoadEvent) -> String {
        switch event {
        case .progress: return "progress"
        case .preview: return "preview"
        case .revalidating: return "revalidating"
        case .keptCached(_, let error): return error == nil ? "keptCached" : "keptCached(error)"
        case .finished(.success): return "finished"
        case .finished(.failure): return "failed"
        }
    }

    @Test func everyPathEndsWithExactlyOneTerminalEventAndNothingAfterIt() async throws {
        let kit = try await ManagerTestKit.make(clockedCache: true)
        kit.serve("/fresh.png", color: (1, 2, 3, 255), headers: ["Cache-Control": "max-age=3600"])
        kit.serve("/stale.png", color: (4, 5, 6, 255), etag: "\"s1\"")
        kit.serve("/changed.png", color: (7, 8, 9, 255), etag: "\"c1\"")
        kit.serve("/down.png", color: (1, 1, 1, 255), etag: "\"d1\"")
        kit.server.route("/gone.png", .status(404))
        var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (2, 2, 2, 255)), contentType: "image/png")
        slow.bytesPerSecond = 8_000
        slow.chunkSize = 1024
        kit.server.route("/slow.png", slow)
        let file = kit.directory.appendingPathComponent("local.png")
        try TestPNG.solid(width: 4, height: 4, rgba: (3, 3, 3, 255)).write(to: file)
        func load(_ path: String, cache: ImageRequest.CachePolicy = .init(), delivery: ImageRequest.DeliveryOptions = []) async -> [ImageLoadEvent] {
            await Self.events(kit.manager, ImageRequest(url: kit.server.url(path), cache: cache, delivery: delivery))
        }

        // Downloads, a fresh memory hit, a fresh disk hit, a failure, a progressive slow body.
        var seen: [String: [ImageLoadEvent]] = [:]
        for path in ["/fresh.png", "/stale.png", "/changed.png", "/down.png"] { seen["download " + path] = await load(path) }
        seen["memory hit"] = await load("/fresh.png")
        kit.manager.cache.clearMemory()
        seen["disk hit"] = await load("/fresh.png")
        seen["404"] = await load("/gone.png")
        seen["progressive"] = await load("/slow.png", delivery: .progressiveLoad)
        seen["file"] = await Self.events(kit.manager, ImageRequest(url: file))
        seen["invalid URL"] = await Self.events(kit.manager, ImageRequest(url: URL(string: "ftp://example.com/a.png")))

        // Revalidations: a 304, a new body, a failure to ask.
        kit.serve("/changed.png", color: (9, 9, 9, 255), etag: "\"c2\"")
        kit.server.route("/down.png", .status(503))
        seen["304"] = await load("/stale.png")
        seen["200 over a cached copy"] = await load("/changed.png")
        seen["503 over a cached copy"] = await load("/down.png")
        seen["refresh of a fresh copy"] = await load("/fresh.png", cache: .init(refreshCached: true))

        for (path, events) in seen { Self.expectOrdered(events, path) }
        #expect(seen["304"].map { $0.map(Self.name) } == ["revalidating", "keptCached"])
        #expect(seen["200 over a cached copy"]?.first?.isRevalidating == true)
        #expect(seen["200 over a cached copy"]?.last?.image?.firstPixel == [9, 9, 9, 255])
        #expect(seen["503 over a cached copy"].map { $0.filter { !$0.isProgress }.map(Self.name) } == ["revalidating", "keptCached(error)"])
        #expect(seen["memory hit"].map { $0.map(Self.name) } == ["finished"])
        #expect(seen["progressive"]?.contains { $0.isProgress } == true)
        #expect(seen["404"]?.last?.error != nil && seen["invalid URL"]?.last?.error != nil)
        await kit.tearDown()
    }
}

extension ImageLoadEvent {
    var isProgress: Bool {
        if case .progress = self { return true }
        return false
    }
}
