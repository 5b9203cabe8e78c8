import Foundation
import ImageCodecs
import Locking

/// Cache → download → store, with options, failed-URL memory and refresh through HTTP validators
/// (SDWebImageManager). Every load is one `CombinedOperation`.
///
/// ```swift
/// let op = ImageManager.shared.loadImage(with: url, options: [.progressiveLoad],
///                                        context: ImageLoadContext(targetSize: PixelSize(width: 160, height: 96))) { result in
///     if let image = result.image { show(image, final: result.isFinished) }
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
        var delegate: (any ImageManagerDelegate)?
    }

    private let settings = Locked(Settings())
    private let running = Locked<Set<CombinedOperation>>([])
    let fileLoader: LocalFileLoader
    /// Largest local file loaded (or saved): the same cap as a download body.
    public static let localFileByteLimit = LocalFileLoader.maxBytes

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

    /// Hooks for download permission and transformation (held strongly).
    public var delegate: (any ImageManagerDelegate)? {
        get { settings.withLock { $0.delegate } }
        set { settings.withLock { $0.delegate = newValue } }
    }

    /// The cache key of `url`.
    /// The decoded image of `url` at `targetSize` that the memory cache holds, if any: what a load
    /// would deliver at once (no disk access, no request).
    public func memoryCachedImage(for url: URL, targetSize: PixelSize?) -> Image? {
        cache.imageFromMemory(forKey: ImageCacheKey(urlKey: cacheKey(for: url), targetSize: targetSize))
    }

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

    /// Loads `string` as a URL (see `loadImage(with:options:context:progress:completed:)`).
    @discardableResult
    public func loadImage(
        with string: String, options: ImageManagerOptions = [], context: ImageLoadContext = ImageLoadContext(),
        progress: DownloadProgressHandler? = nil, completed: @escaping @Sendable (ImageLoadResult) -> Void
    ) -> CombinedOperation {
        loadImage(with: URL(string: string), options: options, context: context, progress: progress, completed: completed)
    }

    /// Loads the image of `url`: memory cache, disk cache, then the network (or the file system for
    /// `file:` URLs). `completed` runs for each partial image (`isFinished == false`, with
    /// `.progressiveLoad`) and for the result; with `.refreshCached` and a cached copy, first for the
    /// cached image and again for the revalidation (`isNotModified`, a new image, or an error).
    /// Callbacks run on background queues; never after `cancel()`.
    @discardableResult
    public func loadImage(
        with url: URL?, options: ImageManagerOptions = [], context: ImageLoadContext = ImageLoadContext(),
        progress: DownloadProgressHandler? = nil, completed: @escaping @Sendable (ImageLoadResult) -> Void
    ) -> CombinedOperation {
        let operation = CombinedOperation { [weak self] op in
            _ = self?.running.withLock { $0.remove(op) }
        }
        running.withLock { _ = $0.insert(operation) }
        guard let url, Self.isLoadable(url) else {
            let text = url?.redactedString ?? ""
            operation.deliver(final: true) { completed(ImageLoadResult(url: url, error: .invalidURL(text))) }
            return operation
        }
        let load = Load(url: url, key: cacheKey(for: url), options: options, context: context,
                        operation: operation, progress: progress, completed: completed)
        if !options.contains(.retryFailed), let error = failedURLs.error(forKey: load.key) {
            operation.deliver(final: true) { completed(ImageLoadResult(url: url, error: error)) }
            return operation
        }
        if options.contains(.fromLoaderOnly) {
            fetch(load, cached: nil)
        } else {
            queryCache(load)
        }
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
    let options: ImageManagerOptions
    let context: ImageLoadContext
    let operation: CombinedOperation
    let progress: DownloadProgressHandler?
    let completed: @Sendable (ImageLoadResult) -> Void

    var cacheKey: ImageCacheKey { ImageCacheKey(urlKey: key, targetSize: context.targetSize) }

    var decodeOptions: DecodeOptions {
        var decode = DecodeOptions(targetSize: context.targetSize)
        if options.contains(.scaleDownLargeImages), decode.targetSize == nil {
            decode.targetSize = PixelSize(width: 4096, height: 4096)
        }
        return decode
    }

    /// Delivers `result`; `last` ends the operation.
    func deliver(_ result: ImageLoadResult, last: Bool) {
        operation.deliver(final: last) { completed(result) }
    }
}
