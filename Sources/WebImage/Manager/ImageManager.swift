import Foundation
import ImageCodecs
import Locking

/// Cache → download → store, with a cache policy, failed-URL memory and refresh through HTTP validators
/// (SDWebImageManager). Every load is one `CombinedOperation`.
///
/// ```swift
/// let request = ImageRequest(url: url, targetSize: PixelSize(width: 160, height: 96), delivery: .progressiveLoad)
/// let op = ImageManager.shared.loadImage(with: request) { event in
///     switch event {
///     case .preview(let image): show(image, final: false)
///     case .revalidating(let hit), .finished(.success(let hit)): show(hit.image, final: true)
///     case .progress, .keptCached, .finished(.failure): break
///     }
/// }
/// op.cancel()   // the cell scrolled away: no callback follows
/// ```
public final class ImageManager: Sendable {
    /// The shared manager: default cache directory and downloader.
    public static let shared = ImageManager()

    /// The two-level cache.
    public let cache: ImageCache
    /// The downloader.
    public let downloader: ImageDownloader
    /// URLs whose last load failed for a non-transient reason.
    public let failedURLs: FailedURLRegistry

    private struct Settings {
        var cacheKeyFilter: (@Sendable (URL) -> String)?
    }

    private let settings = Locked(Settings())
    private let running = Locked<Set<CombinedOperation>>([])
    let fileLoader: LocalFileLoader

    /// Creates a manager with its own cache and downloader. `failedURLLifetime` is how long a failed
    /// URL is answered from memory (seconds, by `clock`).
    public init(
        cache: ImageCache = ImageCache(), downloader: ImageDownloader = ImageDownloader(),
        failedURLLifetime: TimeInterval = 600, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.cache = cache
        self.downloader = downloader
        self.failedURLs = FailedURLRegistry(lifetime: failedURLLifetime, clock: clock)
        self.fileLoader = LocalFileLoader(decode: cache.config.decoder)
    }

    /// Maps a URL to its cache key (default: the absolute URL without fragment).
    public var cacheKeyFilter: (@Sendable (URL) -> String)? {
        get { settings.withLock { $0.cacheKeyFilter } }
        set { settings.withLock { $0.cacheKeyFilter = newValue } }
    }

    /// The cache key of `url`.
    public func cacheKey(for url: URL?) -> String {
        guard let url else { return "" }
        if let filter = cacheKeyFilter { return filter(url) }
        return ImageCacheKey(url: url).urlKey
    }

    /// Loads in flight.
    public var runningOperations: [CombinedOperation] { running.withLock { Array($0) } }

    /// Whether any load is in flight.
    public var isRunning: Bool { running.withLock { !$0.isEmpty } }

    /// Cancels every load in flight (no completion follows for any of them).
    public func cancelAll() {
        for operation in runningOperations { operation.cancel() }
    }

    /// Loads `url` with the default request at its own size (see `loadImage(with:onEvent:)` for a request).
    @discardableResult
    public func loadImage(with url: URL?, onEvent: @escaping @Sendable (ImageLoadEvent) -> Void) -> CombinedOperation {
        loadImage(with: ImageRequest(url: url), onEvent: onEvent)
    }

    /// Loads the image of `request`: memory cache, disk cache, then the network (or the file system
    /// for `file:` URLs). `onEvent` gets the download's progress, each partial image (with
    /// `.progressiveLoad`), a cached image under revalidation, then exactly one terminal event
    /// (`ImageLoadEvent` gives the order); nothing after it. Events run on background queues, one at a
    /// time (a memory hit inline, before this returns); never after `cancel()`. The original file's
    /// bytes come from `loadOriginal(of:completed:)`.
    @discardableResult
    public func loadImage(
        with request: ImageRequest, onEvent: @escaping @Sendable (ImageLoadEvent) -> Void
    ) -> CombinedOperation {
        let operation = makeOperation()
        guard let url = request.url, Self.isLoadable(url) else {
            let text = request.url?.redactedString ?? ""
            operation.deliver(final: true) { onEvent(.finished(.failure(.invalidURL(text)))) }
            return operation
        }
        let load = Load(url: url, key: cacheKey(for: url), request: request, operation: operation, onEvent: onEvent)
        if !request.cache.retryFailed, let error = failedURLs.error(forKey: load.key) {
            load.deliver(.finished(.failure(error)))
            return operation
        }
        switch request.cache.read {
        case .none: fetch(load, cached: nil)
        case .memoryAndDisk, .memoryOnly: queryCache(load)
        }
        return operation
    }

    /// A new operation, counted in `runningOperations` until it ends.
    func makeOperation() -> CombinedOperation {
        let operation = CombinedOperation { [weak self] op in
            _ = self?.running.withLock { $0.remove(op) }
        }
        running.withLock { _ = $0.insert(operation) }
        return operation
    }

    static func isLoadable(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "http"?, "https"?: return !(url.host ?? "").isEmpty
        case "file"?: return !url.path.isEmpty
        default: return false
        }
    }
}

/// Everything one load needs as it moves between queues.
struct Load: Sendable {
    let url: URL
    let key: String
    let request: ImageRequest
    let operation: CombinedOperation
    let onEvent: @Sendable (ImageLoadEvent) -> Void

    var cacheKey: ImageCacheKey {
        ImageCacheKey(urlKey: key, targetSize: request.targetSize, firstFrameOnly: request.delivery.contains(.decodeFirstFrameOnly))
    }

    /// Delivers `event` unless the load was cancelled or has delivered its terminal event; a terminal
    /// event ends the operation.
    func deliver(_ event: ImageLoadEvent) {
        operation.deliver(final: event.isTerminal) { onEvent(event) }
    }
}
