import Foundation
import ImageCodecs

/// What `ImageManager.loadImage` delivers: SDWebImage's (image, data, error, cacheType, finished, url).
public struct ImageLoadResult: Sendable {
    /// The URL asked for (nil when it was missing).
    public var url: URL?
    /// The image (partial while `isFinished == false`); nil on error and on `isNotModified`.
    public var image: Image?
    /// The original bytes, when known (downloads; cache hits only when asked).
    public var data: Data?
    /// Why there is no image.
    public var error: ImageLoadError?
    /// Where the image came from.
    public var cacheType: ImageCacheType
    /// False for progressive partial images; true for the last delivery of a load.
    public var isFinished: Bool
    /// A refresh found the cached copy still valid (HTTP 304): no new image, nothing to redraw.
    public var isNotModified: Bool
    /// A cached image that is being revalidated (stale, `no-cache`, or `.refreshCached`): one more
    /// delivery follows (`isNotModified`, a new image, or an error), though this one is finished.
    public var isRevalidating: Bool = false

    /// Creates a result.
    public init(url: URL?, image: Image? = nil, data: Data? = nil, error: ImageLoadError? = nil,
                cacheType: ImageCacheType = .none, isFinished: Bool = true, isNotModified: Bool = false) {
        self.url = url
        self.image = image
        self.data = data
        self.error = error
        self.cacheType = cacheType
        self.isFinished = isFinished
        self.isNotModified = isNotModified
    }
}

/// Per-load parameters beyond the options.
public struct ImageLoadContext: Sendable {
    /// Decode to fit this box (the cell's pixel size); memory-cache entries are keyed by it.
    public var targetSize: PixelSize?
    /// Extra request headers for this load.
    public var headers: [String: String]
    /// Keep the decoded image in the memory cache (the prefetcher turns this off).
    public var storeInMemory: Bool
    /// Where the download waits among waiting downloads of its priority (see
    /// `DownloadContext.queueOrder`).
    public var queueOrder: Int?

    /// Creates a context.
    public init(targetSize: PixelSize? = nil, headers: [String: String] = [:], storeInMemory: Bool = true) {
        self.targetSize = targetSize
        self.headers = headers
        self.storeInMemory = storeInMemory
    }
}

/// Hooks into `ImageManager` (SDWebImageManagerDelegate). Both run off the UI and network threads.
public protocol ImageManagerDelegate: AnyObject, Sendable {
    /// Whether `url` may be downloaded after a cache miss. Default: yes.
    func shouldDownloadImage(for url: URL) -> Bool
    /// A replacement for a freshly downloaded image (stored in memory instead of the original,
    /// without the original bytes). Default: the image itself.
    func transformDownloadedImage(_ image: Image, for url: URL) -> Image
}

extension ImageManagerDelegate {
    /// Default: allow every download.
    public func shouldDownloadImage(for url: URL) -> Bool { true }
    /// Default: no transformation.
    public func transformDownloadedImage(_ image: Image, for url: URL) -> Image { image }
}
