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
