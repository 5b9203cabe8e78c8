import Foundation
import ImageCodecs

/// What `ImageManager.loadImage` delivers, one event at a time, in this order: any number of
/// `.progress` and `.preview`, at most one `.revalidating`, then exactly one terminal event
/// (`.finished`, or `.keptCached` after `.revalidating`). Nothing follows the terminal event, and
/// nothing at all follows `cancel()` (Nuke's `ImageTask.Event`).
///
/// ```swift
/// manager.loadImage(with: request) { event in
///     switch event {
///     case .progress(let received, let expected): showBar(received, of: expected)
///     case .preview(let partial): show(partial, final: false)
///     case .revalidating(let cached): show(cached.image, final: true)   // the server is asked meanwhile
///     case .keptCached: break                                            // the cached image stands
///     case .finished(.success(let loaded)): show(loaded.image, final: true)
///     case .finished(.failure(let error)): showError(error.shortDescription)
///     }
/// }
/// ```
public enum ImageLoadEvent: Sendable {
    /// Bytes of the download received so far; `expected` nil when the length is unknown.
    case progress(received: Int64, expected: Int64?)
    /// A partial image of a progressive download (`.progressiveLoad`); more follows.
    case preview(Image)
    /// A cached image, delivered at once while the server is asked whether it is still current (a
    /// stale entry, `no-cache`, unknown freshness, or `cache.refreshCached`). Show it; one terminal event
    /// follows: `.keptCached`, or `.finished` with the new image (a 200).
    case revalidating(ImageLoadSuccess)
    /// Terminal, only after `.revalidating`: its cached image (given again) stands. The server said it
    /// is unchanged (a 304, `revalidationError` nil: its freshness is renewed), or could not be asked
    /// (`revalidationError`, remembered as a failed URL like any failure).
    case keptCached(ImageLoadSuccess, revalidationError: ImageLoadError?)
    /// Terminal: the image — a fresh cache hit, a download, a local file, a revalidation's new body —
    /// or why there is none.
    case finished(Result<ImageLoadSuccess, ImageLoadError>)

    /// Whether this is the load's last event.
    public var isTerminal: Bool {
        switch self {
        case .progress, .preview, .revalidating: return false
        case .keptCached, .finished: return true
        }
    }
}

/// An image a load delivers as final (`ImageLoadEvent.finished`, `.revalidating`).
public struct ImageLoadSuccess: Sendable {
    /// The image at the request's target size.
    public var image: Image
    /// The downloaded bytes, for a download (a stopped transfer's start only; cache hits and local
    /// files have none: what the file is travels on the image, `sourceFormat`, `sourceByteCount`).
    public var data: Data?
    /// Where the image came from (`.none`: the network or a local file).
    public var cacheType: ImageCacheType

    /// Creates a success.
    public init(image: Image, data: Data? = nil, cacheType: ImageCacheType = .none) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }
}
