import Foundation
import ImageCodecs
import Synchronization
import TestSupport
@testable import WebImage

/// A manager on a real loopback server, a real disk cache in a temp folder and the real codecs.
struct ManagerTestKit {
    let server: LoopbackServer
    let directory: URL
    let manager: ImageManager
    let clock: TestClock

    /// `clockedCache`: the cache also runs on `clock` (freshness tests advance it instead of waiting).
    static func make(downloadTimeout: TimeInterval = 20, memory: Bool = true, clockedCache: Bool = false,
                     partials: Bool = false) async throws -> ManagerTestKit {
        let server = try await LoopbackServer.start()
        let directory = try Fixtures.temporaryDirectory("manager")
        let clock = TestClock()
        let manager = makeManager(directory: directory, downloadTimeout: downloadTimeout, clock: clock, memory: memory,
                                  clockedCache: clockedCache, partials: partials)
        return ManagerTestKit(server: server, directory: directory, manager: manager, clock: clock)
    }

    /// `partials`: the downloader keeps partial bodies in `directory/partials`, as the gallery does, so
    /// a second manager on the same directory (a later run) resumes them.
    static func makeManager(directory: URL, downloadTimeout: TimeInterval = 20, clock: TestClock, memory: Bool = true,
                            clockedCache: Bool = false, partials: Bool = false) -> ImageManager {
        var cacheConfig = ImageCacheConfig()
        if clockedCache { cacheConfig.clock = clock.closure }
        cacheConfig.directory = directory
        cacheConfig.fsyncDiskWrites = false
        cacheConfig.shouldCacheImagesInMemory = memory
        var downloaderConfig = ImageDownloaderConfig()
        downloaderConfig.downloadTimeout = downloadTimeout
        if partials { downloaderConfig.partialsDirectory = directory.appendingPathComponent("partials") }
        return ImageManager(cache: ImageCache(config: cacheConfig), downloader: ImageDownloader(config: downloaderConfig),
                            failedURLLifetime: 600, clock: clock.closure)
    }

    func tearDown() async {
        manager.cancelAll()
        await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Serves a solid-colour PNG at `path`.
    func serve(_ path: String, color: (UInt8, UInt8, UInt8, UInt8), size: Int = 8, etag: String? = nil,
               headers: [String: String] = [:], lastModified: String? = nil) {
        var stub = StubResponse.ok(TestPNG.solid(width: size, height: size, rgba: color), contentType: "image/png")
        stub.etag = etag
        stub.lastModified = lastModified
        for (name, value) in headers { stub.headers[name] = value }
        server.route(path, stub)
    }
}

/// Collects the events of one or more loads (`recordLoad` leaves progress out).
typealias LoadRecorder = CallbackRecorder<ImageLoadEvent>

extension CallbackRecorder where Value == ImageLoadEvent {
    /// Records `event` unless it is progress: the tests look at images and terminal events.
    func recordLoad(_ event: ImageLoadEvent) {
        if case .progress = event { return }
        record(event)
    }

    /// The terminal event, once it came.
    var terminal: ImageLoadEvent? { all.last { $0.isTerminal } }
}

/// What the tests read of an event.
extension ImageLoadEvent {
    /// The image it shows: partial, cached under revalidation, or final (not the cached image a
    /// `.keptCached` gives again).
    var image: Image? {
        switch self {
        case .preview(let image): return image
        case .revalidating(let hit), .finished(.success(let hit)): return hit.image
        case .progress, .keptCached, .finished(.failure): return nil
        }
    }

    /// A final image's success (a cached image under revalidation included).
    var success: ImageLoadSuccess? {
        switch self {
        case .revalidating(let hit), .finished(.success(let hit)): return hit
        case .progress, .preview, .keptCached, .finished(.failure): return nil
        }
    }

    /// A failed load's error, or a revalidation's that kept the cached image.
    var error: ImageLoadError? {
        switch self {
        case .finished(.failure(let error)): return error
        case .keptCached(_, let error): return error
        case .progress, .preview, .revalidating, .finished(.success): return nil
        }
    }

    /// Where a final image came from.
    var cacheType: ImageCacheType? { success?.cacheType }

    /// A download's bytes, with its final image.
    var data: Data? { success?.data }

    /// Whether this is a cached image under revalidation.
    var isRevalidating: Bool {
        if case .revalidating = self { return true }
        return false
    }

    /// Whether the revalidation's answer was a 304 (the cached image kept, no error).
    var isNotModified: Bool {
        if case .keptCached(_, nil) = self { return true }
        return false
    }

    /// Whether the revalidation kept the cached image.
    var isKeptCached: Bool {
        if case .keptCached = self { return true }
        return false
    }
}

extension ImageManager {
    /// Waits (up to 30 s) until this manager runs no operation, its downloader is idle and its
    /// cache's queues too: by then whatever a cancelled load could still call back has been handed
    /// on. "Nothing after cancel" tests look then, not after a fixed sleep.
    func untilIdle() async -> Bool {
        guard await downloader.untilIdle() else { return false }
        let deadline = ContinuousClock.now + .seconds(30)
        while !runningOperations.isEmpty {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        cache.waitUntilIdle()
        return true
    }

    /// Loads and waits for `deliveries` events (progress not counted).
    func results(
        _ url: URL?, cache: ImageRequest.CachePolicy = .init(), targetSize: PixelSize? = nil, priority: DownloadPriority = .normal,
        deliveries: Int = 1
    ) async -> [ImageLoadEvent] {
        let recorder = LoadRecorder()
        loadImage(with: ImageRequest(url: url, targetSize: targetSize, priority: priority, cache: cache)) { recorder.recordLoad($0) }
        _ = await recorder.wait(count: deliveries, timeout: .seconds(30))
        return recorder.all
    }
}

extension ImageManager {
    /// `loadOriginal(of:)`, awaited (nil when nothing came within 30 s).
    func original(_ url: URL?) async -> Result<ImageOriginal, ImageLoadError>? {
        let recorder = CallbackRecorder<Result<ImageOriginal, ImageLoadError>>()
        loadOriginal(of: url) { recorder.record($0) }
        _ = await recorder.wait(count: 1, timeout: .seconds(30))
        return recorder.all.first
    }
}

extension Image {
    /// The colour of the top-left pixel.
    var firstPixel: [UInt8] { Array(pixels.prefix(4)) }
}
