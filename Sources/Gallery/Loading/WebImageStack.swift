import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import WebImage

/// Builds the product's components from the lower layers: one `ImageManager` per run configured from
/// the command line, the renderer chosen from the probe, the demo server, the counters.
public final class WebImageStack: Sendable {
    private struct State {
        var manager: ImageManager?
        var demo: DemoServer?
        var observation: DownloadEventObservation?
    }

    private let state = Locked(State())
    /// The command line this stack is configured from.
    public let options: GalleryOptions
    /// What the gallery counts (images by origin, failures, first image).
    public let counters = LoadCounters()
    /// The disk cache's health, for the status bar and `--stats`.
    public let diskMonitor = DiskCacheMonitor()

    /// Creates a stack for `options`; the manager is made on first use.
    public init(options: GalleryOptions) { self.options = options }

    /// The components over this stack.
    public var components: GalleryComponents {
        var components = GalleryComponents(
            profile: { options, use in TerminalProfile.detect(use: use, renderer: options.renderer, colors: options.colors) },
            makeSource: { [self] options, inbox in
                let manager = manager
                observeDownloads(manager.downloader, inbox: inbox)
                diskMonitor.attach(inbox)
                let source = ManagerImageSource(manager: manager, inbox: inbox, defaults: Self.requestDefaults(options), counters: counters)
                source.onSettled = { inbox.post(.status(Self.statusUpdate(manager.downloader))) }
                return source
            },
            makePainter: { options, profile in
                RendererPainter(profile: profile, cache: EncodedOutputCache(costLimit: Self.encodedOutputLimit(options)))
            },
            loadForPrint: { [self] entry, target in await load(entry, target: target, like: Self.printRequest(options)) },
            probeReport: { options in TerminalProfile.detect(renderer: options.renderer, colors: options.colors).report },
            demoList: { [self] options in startDemo(options) },
            startupNote: { options in options.demo ? "demo: loopback server at \(options.demoRate / 1000) KB/s per image" : nil },
            clearCache: { [self] options in
                let cache = manager.cache
                guard cache.disk != nil else { return cache.diskError.map { "\($0)" } ?? "the disk cache is off" }
                let done = DispatchSemaphore(value: 0)
                cache.clearDisk { done.signal() }
                done.wait()
                manager.downloader.removePartialDownloads()
                return nil
            },
            statsLines: { [self] in statsLines() }
        )
        components.diskNote = { [diskMonitor] in diskMonitor.note }
        components.finishWrites = { [self] in state.withLock { $0.manager }?.cache.waitUntilIdle() }
        components.statusRefresh = { [self] status in Self.statusUpdate(manager.downloader)(&status) }
        let saveDirectory = URL(fileURLWithPath: options.saveDirectory ?? FileManager.default.currentDirectoryPath)
        components.saveOriginal = { [self] location, done in
            OriginalSaver(manager: manager, directory: saveDirectory).save(location, done: done)
        }
        return components
    }

    /// The run's manager, made from `options` on first use.
    public var manager: ImageManager {
        state.withLock { state in
            if let manager = state.manager { return manager }
            let manager = Self.makeManager(options, diskMonitor: diskMonitor)
            state.manager = manager
            return manager
        }
    }

    /// The gallery's memory-cache limit unless `--memory-limit` says otherwise: about 1,500 grid
    /// thumbnails (160×96 RGBA). The library's 256 MB default made a long scroll hold ~380 MB of RSS
    /// (soak run); a memory miss costs ~0.05 ms here because the disk cache keeps decoded thumbnails.
    static let defaultMemoryLimitMB = 96

    /// What the painter may keep of encoded terminal output (sixel/kitty/half-block bytes): 24 MB, or a
    /// quarter of `--memory-limit` when that is smaller.
    static func encodedOutputLimit(_ options: GalleryOptions) -> Int {
        min(24 << 20, max(1, options.memoryLimitMB ?? defaultMemoryLimitMB) << 18)
    }

    static func makeManager(_ options: GalleryOptions, diskMonitor: DiskCacheMonitor? = nil) -> ImageManager {
        var cacheConfig = ImageCacheConfig()
        if let diskMonitor { cacheConfig.onEvent = { diskMonitor.record($0) } }
        if let directory = options.cacheDirectory { cacheConfig.directory = URL(fileURLWithPath: directory) }
        cacheConfig.shouldUseDiskCache = !options.noDiskCache
        cacheConfig.memoryCostLimit = max(1, options.memoryLimitMB ?? Self.defaultMemoryLimitMB) << 20
        if let mb = options.diskLimitMB { cacheConfig.maxDiskSize = max(1, mb) << 20 }
        var downloaderConfig = ImageDownloaderConfig()
        downloaderConfig.maxConcurrentDownloads = max(1, options.maxConcurrent)
        downloaderConfig.executionOrder = options.order == .lifo ? .lifo : .fifo
        downloaderConfig.downloadTimeout = options.timeout
        downloaderConfig.username = options.user
        downloaderConfig.password = options.password
        downloaderConfig.caCertificateFile = options.caCertificateFile
        downloaderConfig.netrcFile = options.netrcFile
        downloaderConfig.headersFollowRedirects = options.locationTrusted
        downloaderConfig.proxy = options.proxy
        for header in options.headers { downloaderConfig.setValue(header.value, forHTTPHeaderField: header.name) }
        // Partials of cancelled transfers live next to the cache entries (a subfolder the disk cache
        // does not count as entries), so the next run resumes them too; only when the disk cache
        // accepted its folder: a refused folder turns off every on-disk tier (one status line).
        // `--disk-limit` covers them: an eighth of it (at most the 64 MB default) is theirs, the rest
        // the entries'.
        downloaderConfig.maxPartialBytes = min(downloaderConfig.maxPartialBytes, cacheConfig.maxDiskSize / 8)
        cacheConfig.maxDiskSize -= downloaderConfig.maxPartialBytes
        let cache = ImageCache(config: cacheConfig)
        if cache.disk != nil { downloaderConfig.partialsDirectory = cacheConfig.directory.appendingPathComponent("partials") }
        let downloader = ImageDownloader(config: downloaderConfig)
        return ImageManager(cache: cache, downloader: downloader)
    }

    /// The one place command-line options become a request: the gallery's defaults for a load, which
    /// its binds and prefetches (`ManagerImageSource`, which keeps them) and `--print` start from,
    /// their URL, size and priority set per load.
    static func requestDefaults(_ options: GalleryOptions) -> ImageRequest {
        var request = ImageRequest(url: nil)
        request.cache.refreshCached = options.refresh
        if !options.noProgressive { request.delivery.insert(.progressiveLoad) }
        if options.insecure { request.transfer.insert(.allowInvalidSSLCertificates) }
        if options.cookies { request.transfer.insert(.handleCookies) }
        return request
    }

    /// `--print`'s: a sheet's cell stops its transfer (or its file read) once its image is final at
    /// the cell's size, as the gallery's cells do (not with `--refresh`), and no partial image is
    /// decoded: nobody sees one.
    static func printRequest(_ options: GalleryOptions) -> ImageRequest {
        var request = requestDefaults(options)
        request.delivery.remove(.progressiveLoad)
        request.delivery.insert(.decodeFirstFrameOnly)  // a sheet shows stills: an animation's first frame only
        if !request.cache.refreshCached { request.delivery.insert(.stopWhenSufficient) }
        return request
    }

    /// Downloader start/stop → the status bar (active, queued, bytes), through the inbox. The counts
    /// are read when the UI applies the update, so they are never older than the event.
    private func observeDownloads(_ downloader: ImageDownloader, inbox: UIInbox<GalleryEvent>) {
        // Weak: the downloader owns its event center, which owns this closure (a strong capture was a
        // cycle that LeakSanitizer reported at exit).
        let observation = downloader.events.addObserver { [weak downloader] _ in
            guard let downloader else { return }
            inbox.post(.status(Self.statusUpdate(downloader)))
        }
        state.withLock { $0.observation = observation }
    }

    /// A status-bar update that reads the downloader's counters when applied.
    static func statusUpdate(_ downloader: ImageDownloader) -> @Sendable (inout StatusInfo) -> Void {
        { status in
            status.activeDownloads = downloader.currentDownloadCount
            status.queuedDownloads = downloader.queuedDownloadCount
            status.bytesReceived = downloader.statistics.snapshot.bytesReceived
            status.spinnerPhase += 1
        }
    }

    /// One entry, loaded to completion like `template` (for `--print`) at `target`, through the manager
    /// like every load. A cached copy being revalidated (stale, or `refreshCached`) is kept on 304 or error.
    func load(_ entry: URLListEntry, target: PixelSize?, like template: ImageRequest = ImageRequest(url: nil)) async -> Result<(Image, ImageDetails), LoadFailure> {
        let url = entry.location.url
        var request = template
        request.url = url
        request.targetSize = target
        do {
            let loaded = try await manager.image(for: request)
            return .success((loaded.image, ManagerImageSource.details(loaded, cacheType: loaded.cacheType, isFile: url.isFileURL)))
        } catch let error as ImageLoadError {
            return .failure(LoadFailure(message: error.shortDescription))
        } catch {
            return .failure(LoadFailure(message: "cancelled"))
        }
    }

    /// Starts the loopback demo server over `assets/demo` and returns its list.
    private func startDemo(_ options: GalleryOptions) -> URLList? {
        guard let directory = DemoAssets.directory() else { return nil }
        let started = Locked<DemoServer?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let server = try? await DemoServer.start(directory: directory, bytesPerSecond: options.demoRate)
            started.withLock { $0 = server }
            done.signal()
        }
        done.wait()
        guard let server = started.withLock({ $0 }) else { return nil }
        state.withLock { $0.demo = server }
        // The server's port changes every run: key the demo's images by name, so that the disk cache
        // serves them on the next run instead of filling up with copies.
        let port = Int(server.port)
        manager.cacheKeyFilter = { url in
            if url.host == "127.0.0.1" && url.port == port { return "sdgallery-demo:" + url.path }
            return ImageCacheKey(url: url).urlKey
        }
        return server.list
    }

    private func statsLines() -> [String] {
        let loads = counters.snapshot
        guard let downloads = state.withLock({ $0.manager })?.downloader.statistics.snapshot else { return [] }
        let first = loads.timeToFirstImage.map { String(format: "%.2f s", $0) } ?? "-"
        return [
            "  requests          \(downloads.requests) (\(downloads.transfers) transfers, \(downloads.coalesced) coalesced, \(downloads.cancelled) cancelled, \(downloads.retries) retried)",
            "  images            \(loads.loaded) loaded, \(loads.memoryHits) memory hits, \(loads.diskHits) disk hits, \(loads.failures) failed",
            "  network bytes     \(SizeText.size(downloads.bytesReceived))",
            "  time to 1st image \(first)",
            "  disk cache        \(diskMonitor.note ?? "ok")\(diskMonitor.failedWrites > 0 ? " (\(diskMonitor.failedWrites) writes failed)" : "")",
        ]
    }
}
