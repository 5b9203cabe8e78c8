import Foundation

// What each layer of the stack does with a request (SDWebImage's `SDWebImageOptions`,
// `SDWebImageDownloaderOptions` and context, split by the layer that reads them;
// docs/architecture.md maps each of the seed's options to what implements it here).

extension ImageRequest {
    /// What the manager and the cache may do with a load: where it looks, where its image is kept,
    /// whether a failed URL is asked again and whether a cached image is revalidated.
    public struct CachePolicy: Sendable, Hashable {
        /// Where the load looks before it fetches.
        public enum Read: Sendable, Hashable {
            /// Memory, then disk, then the loader (the default).
            case memoryAndDisk
            /// Memory only: a hit completes at once (inline), a miss with `ImageLoadError.notCached`;
            /// no disk read, no request (encoding the next screen ahead).
            case memoryOnly
            /// Nowhere: always fetch (the result is still stored; the prefetcher, which looked itself).
            case none
        }

        /// Where the fetched image is kept.
        public enum Store: Sendable, Hashable {
            /// The decoded image in memory, the original on disk (the default).
            case memoryAndDisk
            /// Memory only, never on disk.
            case memoryOnly
            /// The original on disk, the decoded image not in memory (prefetching to disk). An image
            /// of a transfer stopped early (`.stopWhenSufficient`) still goes to memory: it is the
            /// only copy of those pixels.
            case diskOnly
        }

        /// Where the load looks before it fetches.
        public var read: Read
        /// Where the fetched image is kept.
        public var store: Store
        /// Try a URL again even if it failed before (it is otherwise answered from the failed-URL list).
        public var retryFailed: Bool
        /// Deliver the cached image at once, then revalidate with the server (ETag / Last-Modified).
        public var refreshCached: Bool
        /// The original file's bytes are wanted (`ImageManager.loadOriginal`, which `s` calls): the
        /// cache query reads the disk entry's bytes; no early stop, no early image.
        var originalData = false

        /// Creates a policy; the defaults look in memory and on disk, store in both, answer a failed
        /// URL from the failed-URL list and revalidate only stale entries.
        public init(read: Read = .memoryAndDisk, store: Store = .memoryAndDisk, retryFailed: Bool = false, refreshCached: Bool = false) {
            self.read = read
            self.store = store
            self.retryFailed = retryFailed
            self.refreshCached = refreshCached
        }
    }

    /// How the bytes become an image, and which images reach the caller.
    public struct DeliveryOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Deliver partial images while the download runs (`ImageLoadEvent.preview`).
        public static let progressiveLoad = DeliveryOptions(rawValue: 1 << 0)
        /// The download (or a local file's read) stops once the image is final at the target size
        /// (`IncrementalDecoding.sufficientImage()`: the EXIF thumbnail when it holds the target; a
        /// progressive JPEG's scans that carry the 1/8, 1/4 or 1/2 scale the target needs, decided
        /// from its scan script; an Adam7 PNG's or interlaced GIF's first pass) and keeps the body so
        /// far for a later `Range` request; such an image (`isWholeBody == false`) goes to disk as the
        /// URL's early entry (`EarlyImageEntry`), never as its original. Only when every request
        /// sharing the transfer asks for it at the same size. Ignored with `CachePolicy.refreshCached`
        /// and for the original (`ImageManager.loadOriginal`). The bytes go to an incremental decoder
        /// as they arrive; partial images are delivered only with `.progressiveLoad` (a `--print`
        /// sheet asks for the stop alone: nobody sees partials).
        public static let stopWhenSufficient = DeliveryOptions(rawValue: 1 << 1)
        /// Decode within the downloader's pixel budget (`ImageDownloaderConfig.scaleDownPixelBudget`)
        /// when the request has no target size.
        public static let scaleDownLargeImages = DeliveryOptions(rawValue: 1 << 2)
        /// Decode only an animation's first frame (SDWebImage's `decodeFirstFrameOnly`): the grid's
        /// cells and `--print` show stills, so they never hold an animation's frames (16 animated
        /// GIFs of 10,850 frames held 4.2 GB in a sixel grid). A cache entry of its own.
        public static let decodeFirstFrameOnly = DeliveryOptions(rawValue: 1 << 3)
    }

    /// How the download itself is made. Requests that differ in these never share a transfer
    /// (`TransferKey`): a joiner must not get a transfer made without them.
    public struct TransferOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Ask intermediaries for a fresh copy (`Cache-Control: no-cache`, `Pragma: no-cache`); the
        /// manager sets it on revalidations.
        public static let ignoreCachedResponse = TransferOptions(rawValue: 1 << 0)
        /// Store cookies from responses and send them back (curl's cookie engine, shared by every
        /// transfer of the downloader that uses this option).
        public static let handleCookies = TransferOptions(rawValue: 1 << 1)
        /// Skip TLS certificate and host name verification. Only with this option.
        public static let allowInvalidSSLCertificates = TransferOptions(rawValue: 1 << 2)
    }
}
