import Foundation
import ImageCodecs
import Locking
import WebImage

/// The gallery's `CellImageSource` on the web-image stack: each visible slot is an `ImageSlot`
/// (cancelled when the slot is rebound or leaves the screen, so the transfer stops when it was the
/// URL's last handler), prefetches go through an `ImagePrefetcher` at low priority and are joined,
/// not duplicated, when the cell becomes visible. Local files load through the same manager.
///
/// UI thread only (the `ImageSlot`s are confined to it). A load update crosses to the UI thread once:
/// the manager's callback is posted through the inbox executor, the slot drops it there if the load
/// was cancelled or replaced (the one staleness check), and hands the rest to the cell's `onUpdate`.
public final class ManagerImageSource: CellImageSource {
    /// The manager every load goes through.
    public let manager: ImageManager
    /// Counters for the status bar and `--stats`.
    public let counters: LoadCounters
    private let executor: InboxExecutor
    private let prefetcher: ImagePrefetcher
    /// The request every load of this source starts from (its URL, size and priority set per load):
    /// the gallery's defaults for a load, the one copy of them (`WebImageStack.requestDefaults`).
    private let defaults: ImageRequest
    /// Called whenever a visible load or a prefetch ends (a visible load's on the UI thread, a
    /// prefetch's on any), e.g. to refresh the status bar and wake the loop.
    public var onSettled: (@Sendable () -> Void)?
    private var slots: [SlotID: ImageSlot] = [:]
    private var prefetches: [PrefetchRequest: (url: URL, token: PrefetchToken)] = [:]
    /// Prefetches that became visible: the slot's load joined their transfer, so they end with the
    /// slot (a promoted prefetch left running would keep fetching after the cell scrolled away).
    private var adopted: [SlotID: [PrefetchToken]] = [:]
    /// The queue order of the next bind: each screen starts a block above the last, each bind in it
    /// one below the one before (`ImageRequest.queueOrder`).
    private var nextQueueOrder = 0
    private var screenBase = 0
    /// Slots whose visible load has not settled yet. Prefetches wait until there are none, so they
    /// never take a download slot ahead of a visible cell (a browser's order: the page, then the rest).
    private var loadingSlots: Set<SlotID> = []
    /// Prefetches waiting for the visible loads to settle, in request order.
    private var deferredPrefetches: [(request: PrefetchRequest, url: URL)] = []
    /// Inside `bind`: a memory hit settles inline, and the screen's other binds are still to come.
    private var binding = false
    /// Whether the gallery holds prefetches (`holdPrefetches`).
    private var prefetchesHeld = false
    /// URLs whose bodies this run downloaded (a prefetch's, say): their images in the memory cache are
    /// no cache hits for the status bar and `--stats` (an empty cache counted every prefetch as one).
    private let downloaded = Locked<Set<URL>>([])
    private var downloadObservation: DownloadEventObservation?

    /// Creates a source. Every load, visible or prefetch, starts from `defaults` (its cache policy,
    /// delivery and transfer options: e.g. `.allowInvalidSSLCertificates`, `.handleCookies`,
    /// `.progressiveLoad`; `WebImageStack.requestDefaults`).
    public init(manager: ImageManager, inbox: UIInbox<GalleryEvent>, defaults: ImageRequest = ImageRequest(url: nil),
                counters: LoadCounters = LoadCounters()) {
        self.manager = manager
        self.executor = InboxExecutor(inbox: inbox)
        self.prefetcher = ImagePrefetcher(manager: manager, maxConcurrentPrefetchCount: 2)
        self.defaults = defaults
        self.counters = counters
        downloadObservation = manager.downloader.events.addObserver { [downloaded] event in
            guard case .finished(let url) = event else { return }
            downloaded.withLock { urls in if urls.count < 1 << 18 { urls.insert(url) } }
        }
    }

    /// Holds (or releases) new downloads: the downloader is suspended meanwhile.
    public func holdDownloads(_ hold: Bool) { manager.downloader.isSuspended = hold }

    /// Holds (or releases) prefetches: held ones wait, in order, and start on release once no
    /// visible load is left.
    public func holdPrefetches(_ hold: Bool) {
        prefetchesHeld = hold
        startDeferredPrefetchesIfIdle()
    }

    /// The memory cache's image of the item at `targetSize`: a manager load that answers from memory
    /// only, which completes inline (no disk read, no request).
    public func cachedImage(for item: GalleryItem, targetSize: PixelSize) -> Image? {
        let request = ImageRequest(url: item.entry.location.url, targetSize: targetSize,
                                   cache: ImageRequest.CachePolicy(read: .memoryOnly), delivery: .decodeFirstFrameOnly)
        let found = Locked<Image?>(nil)
        manager.loadImage(with: request) { event in
            switch event {
            case .finished(.success(let hit)): found.withLock { $0 = hit.image }
            case .progress, .preview, .revalidating, .keptCached, .finished(.failure): return  // a miss (a memory-only read never revalidates)
            }
        }
        return found.withLock { $0 }
    }

    /// Binds `slot` to `item` at high priority (LIFO in the downloader: the newest screen wins).
    public func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: BindOptions,
                     onUpdate: @escaping (CellImageUpdate) -> Void) {
        let imageSlot = slots[slot] ?? makeSlot(slot)
        cancelAdopted(slot)
        adoptPrefetches(of: item.entry.location.url, at: targetSize, into: slot)
        deferredPrefetches.removeAll { $0.url == item.entry.location.url && $0.request.target == targetSize }
        var request = self.request(item.entry.location.url, targetSize: targetSize, options: options)
        request.priority = .high
        let isFile = item.entry.location.url.isFileURL
        let counters = self.counters, downloaded = self.downloaded
        let settled = onSettled
        loadingSlots.insert(slot)
        counters.noteBind()
        request.queueOrder = nextQueueOrder
        nextQueueOrder -= 1
        let url = item.entry.location.url
        binding = true
        defer { binding = false }
        // The cell's image is final (a cached one under revalidation too): the visible load settles.
        let settle = { [weak self] in
            self?.visibleLoadSettled(slot)
            settled?()
        }
        imageSlot.setImage(with: request) { event in
            switch event {
            case .progress(let received, let expected):
                onUpdate(.progress(received: received, expected: expected))
            case .preview(let image):
                onUpdate(.partial(image))
            case .revalidating(let hit), .finished(.success(let hit)):
                settle()
                // A cached image being revalidated is shown as final and stays whatever the revalidation
                // says. A memory hit of an image this run downloaded (a prefetch) came from the network.
                let fetched = hit.cacheType == .memory && downloaded.withLock { $0.contains(url) }
                let cacheType: ImageCacheType = fetched ? .none : hit.cacheType
                counters.noteImage(cacheType: cacheType)
                onUpdate(.final(hit.image, Self.details(hit, cacheType: cacheType, isFile: isFile)))
            case .keptCached:
                settle()
                onUpdate(.notModified)  // a 304, or the server could not be asked: the cached copy stands
            case .finished(.failure(let error)):
                settle()
                counters.noteFailure()
                onUpdate(.failed(error.shortDescription))
            }
        }
    }

    /// A load of `url` at `targetSize`: the defaults, what the binding asks, and the stop once the
    /// cell's pixels are known (not for a refresh: it wants the whole original).
    private func request(_ url: URL, targetSize: PixelSize, options: BindOptions) -> ImageRequest {
        var request = defaults
        request.url = url
        request.targetSize = targetSize
        if options.contains(.refresh) { request.cache.refreshCached = true }
        if options.contains(.firstFrameOnly) { request.delivery.insert(.decodeFirstFrameOnly) }
        if !request.cache.refreshCached { request.delivery.insert(.stopWhenSufficient) }
        return request
    }

    /// Starts a screen's batch: its binds queue above every earlier batch's.
    public func beginScreen() {
        screenBase += 1 << 16
        nextQueueOrder = screenBase
    }

    /// Cancels the slot's load: its `ImageSlot` drops every completion of it still on the way.
    /// A cancel starts no deferred prefetch: it comes with the binds of the next screen (a scroll),
    /// which are often the very items the prefetches were for — started first, such a prefetch
    /// raced the bind's own load and fetched the image a second time.
    public func cancel(slot: SlotID) {
        slots[slot]?.cancelCurrentImageLoad()
        cancelAdopted(slot)
        loadingSlots.remove(slot)
    }

    /// A visible load ended: once none is left, the deferred prefetches start.
    private func visibleLoadSettled(_ slot: SlotID) {
        loadingSlots.remove(slot)
        startDeferredPrefetchesIfIdle()
    }

    private func startDeferredPrefetchesIfIdle() {
        guard loadingSlots.isEmpty, !binding, !prefetchesHeld, !deferredPrefetches.isEmpty else { return }
        let waiting = deferredPrefetches
        deferredPrefetches.removeAll()
        for (request, url) in waiting { startPrefetch(request, url: url) }
    }

    private func cancelAdopted(_ slot: SlotID) {
        for token in adopted.removeValue(forKey: slot) ?? [] { token.cancel() }
    }

    /// Prefetch joining: a running prefetch of the URL at this size becomes the slot's — the slot's
    /// load joins its transfer in the downloader (one request), and the prefetch ends when the slot
    /// is cancelled. One still waiting for a prefetch slot is cancelled: started later, it checks the
    /// cache, misses while the slot's load is decoding, and downloads the image a second time.
    private func adoptPrefetches(of url: URL, at target: PixelSize, into slot: SlotID) {
        for (request, entry) in prefetches where entry.url == url && request.target == target {
            prefetches[request] = nil
            guard !entry.token.isDone else { continue }
            if entry.token.hasStarted { adopted[slot, default: []].append(entry.token) } else { entry.token.cancel() }
        }
    }

    /// Prefetch pruning: forgets finished prefetches once the table grows past 256 entries, so a long
    /// scroll does not accumulate them.
    private func pruneFinishedPrefetches() {
        if prefetches.count > 256 { prefetches = prefetches.filter { !$0.value.token.isDone } }
    }

    /// Prefetches one item at low priority, to disk (and memory: it is about to be shown).
    public func prefetch(_ request: PrefetchRequest, item: GalleryItem) {
        let url = item.entry.location.url
        guard prefetches[request] == nil, !url.isFileURL, !deferredPrefetches.contains(where: { $0.request == request }) else { return }
        deferredPrefetches.append((request, url))
        startDeferredPrefetchesIfIdle()
    }

    private func startPrefetch(_ request: PrefetchRequest, url: URL) {
        pruneFinishedPrefetches()
        let ended = onSettled
        // Prefetches warm the cache at the cells' sizes: they stop once those pixels are known, too,
        // and decode as they go (a bind that joins the transfer gets its partial images), but not
        // for a refresh.
        var template = self.request(url, targetSize: request.target, options: request.bindOptions)
        if template.cache.refreshCached { template.delivery.remove(.progressiveLoad) } else { template.delivery.insert(.progressiveLoad) }
        prefetches[request] = (url, prefetcher.prefetchURLs([url], like: template, storeInMemory: true) { _, _ in ended?() })
    }

    /// Whether a started prefetch has not ended: from its start (a disk-cache look first, no download
    /// yet) to its image in the cache. An adopted one counts with its slot's visible load.
    public var prefetchesRunning: Bool { prefetches.values.contains { !$0.token.isDone } }

    /// Cancels a prefetch (the user turned around); its transfer stops unless a visible load joined it.
    public func cancelPrefetch(_ request: PrefetchRequest) {
        deferredPrefetches.removeAll { $0.request == request }
        prefetches.removeValue(forKey: request)?.token.cancel()
    }

    /// Cancels everything (quit).
    public func cancelAll() {
        for slot in slots.values { slot.cancelCurrentImageLoad() }
        prefetcher.cancelPrefetching()
        prefetches.removeAll()
        deferredPrefetches.removeAll()
        loadingSlots.removeAll()
        adopted.removeAll()
        manager.cancelAll()
    }

    private func makeSlot(_ id: SlotID) -> ImageSlot {
        let slot = ImageSlot(manager: manager, executor: executor)
        slots[id] = slot
        return slot
    }

    static func details(_ loaded: ImageLoadSuccess, cacheType: ImageCacheType, isFile: Bool) -> ImageDetails {
        let origin: String
        switch cacheType {
        case .memory: origin = "memory"
        case .disk: origin = "disk"
        case .none: origin = isFile ? "file" : "network"
        }
        // The image carries what its file was, whichever cache it came from; bytes only as a fallback.
        let image = loaded.image
        let format = image.sourceFormat ?? loaded.data.map { ImageFormat.sniff($0) }
        let byteCount = image.sourceByteCount ?? loaded.data.map(\.count)
        return ImageDetails(pixelSize: image.sourceSize, byteCount: byteCount.map { Int64($0) },
                            format: format?.rawValue, origin: origin)
    }
}
