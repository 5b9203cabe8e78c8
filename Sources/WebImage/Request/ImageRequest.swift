import Foundation
import ImageCodecs

/// One image load as the whole stack sees it (modelled on Nuke's `ImageRequest`): the URL, the size
/// to decode to, where the download queues, and one option set. The manager reads the cache options,
/// the cache the key and decode size, the downloader the transfer options; nothing maps one option
/// set onto another on the way down.
///
/// ```swift
/// var request = ImageRequest(url: url, targetSize: PixelSize(width: 160, height: 96), priority: .high,
///                            options: [.progressiveLoad, .stopWhenSufficient])
/// request.queueOrder = 42          // this screen's cells before an older screen's
/// let operation = manager.loadImage(with: request) { result in … }
/// operation.cancel()
/// ```
public struct ImageRequest: Sendable, Hashable {
    /// The image's URL (http, https or file); nil completes with `.invalidURL`.
    public var url: URL?
    /// Decode to fit this box (the cell's pixel size); memory-cache entries are keyed by it. Nil: the
    /// image's own size (within the pixel cap; `.scaleDownLargeImages` bounds it further).
    public var targetSize: PixelSize?
    /// How soon the download starts among waiting downloads; a transfer runs at the highest priority
    /// of the requests sharing it, and a token can change it live.
    public var priority: DownloadPriority
    /// Where the download waits among waiting downloads of its priority: a higher order starts first;
    /// nil waits by arrival (the downloader's FIFO or LIFO). The gallery gives each new screen a higher
    /// order than the last (the newest screen first) and, within a screen, each cell a lower one than
    /// the cell before it (reading order from the selection), as a browser loads a page.
    public var queueOrder: Int?
    /// Extra request headers; they override the downloader's headers of the same name, and pass
    /// through its `headersFilter` last.
    public var headers: [String: String]
    /// What to do, at every level (`Options`).
    public var options: Options

    /// Creates a request.
    public init(url: URL?, targetSize: PixelSize? = nil, priority: DownloadPriority = .normal, options: Options = [],
                headers: [String: String] = [:], queueOrder: Int? = nil) {
        self.url = url
        self.targetSize = targetSize
        self.priority = priority
        self.options = options
        self.headers = headers
        self.queueOrder = queueOrder
    }

    /// Creates a request for `string` as a URL (nil when it is not one).
    public init(string: String, targetSize: PixelSize? = nil, priority: DownloadPriority = .normal, options: Options = []) {
        self.init(url: URL(string: string), targetSize: targetSize, priority: priority, options: options)
    }

    /// The one option set of a load (SDWebImage's `SDWebImageOptions` and `SDWebImageDownloaderOptions`
    /// in one; docs/architecture.md maps each of the seed's options to what implements it here).
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        // The manager: failed URLs and the cache.

        /// Try a URL again even if it failed before (it is otherwise answered from the failed-URL list).
        public static let retryFailed = Options(rawValue: 1 << 0)
        /// Deliver the cached image at once, then revalidate with the server (ETag / Last-Modified).
        public static let refreshCached = Options(rawValue: 1 << 1)
        /// Skip the cache query; always download (the result is still stored).
        public static let fromLoaderOnly = Options(rawValue: 1 << 2)
        /// Answer from the memory cache only: a hit completes at once (inline), a miss with
        /// `ImageLoadError.notCached`; no disk read, no request (encoding the next screen ahead).
        public static let memoryCacheOnly = Options(rawValue: 1 << 3)
        /// Store in memory only, never on disk.
        public static let cacheMemoryOnly = Options(rawValue: 1 << 4)
        /// Keep the decoded image out of the memory cache (prefetching to disk).
        public static let skipMemoryStore = Options(rawValue: 1 << 5)
        /// The original file's bytes are wanted (`ImageManager.loadOriginal`, which `s` calls): the
        /// cache query reads the disk entry's bytes; no early stop, no early image.
        static let originalData = Options(rawValue: 1 << 6)

        // Decoding.

        /// Deliver partial images while the download runs (`ImageLoadEvent.preview`).
        public static let progressiveLoad = Options(rawValue: 1 << 7)
        /// The download (or a local file's read) stops once the image is final at the target size
        /// (`IncrementalDecoding.sufficientImage()`: the EXIF thumbnail when it holds the target; a
        /// progressive JPEG's scans that carry the 1/8, 1/4 or 1/2 scale the target needs, decided
        /// from its scan script; an Adam7 PNG's or interlaced GIF's first pass) and keeps the body so far for a later `Range` request; such an image
        /// (`isWholeBody == false`) goes to disk as the URL's early entry (`EarlyImageEntry`), never as
        /// its original. Only when every request sharing the transfer
        /// asks for it at the same size. Ignored with `.refreshCached` and `.originalData`. The bytes
        /// go to an incremental decoder as they arrive; partial images are delivered only with
        /// `.progressiveLoad` (a `--print` sheet asks for the stop alone: nobody sees partials).
        public static let stopWhenSufficient = Options(rawValue: 1 << 8)
        /// Decode within the downloader's pixel budget (`ImageDownloaderConfig.scaleDownPixelBudget`)
        /// when the request has no target size.
        public static let scaleDownLargeImages = Options(rawValue: 1 << 9)

        // The transfer.

        /// Ask intermediaries for a fresh copy (`Cache-Control: no-cache`, `Pragma: no-cache`); the
        /// manager sets it on revalidations.
        public static let ignoreCachedResponse = Options(rawValue: 1 << 10)
        /// Store cookies from responses and send them back (curl's cookie engine, shared by every
        /// transfer of the downloader that uses this option).
        public static let handleCookies = Options(rawValue: 1 << 11)
        /// Skip TLS certificate and host name verification. Only with this option.
        public static let allowInvalidSSLCertificates = Options(rawValue: 1 << 12)

        // The decode.

        /// Decode only an animation's first frame (SDWebImage's `decodeFirstFrameOnly`): the grid's
        /// cells and `--print` show stills, so they never hold an animation's frames (16 animated
        /// GIFs of 10,850 frames held 4.2 GB in a sixel grid). A cache entry of its own.
        public static let decodeFirstFrameOnly = Options(rawValue: 1 << 14)
    }

    /// How the bytes become an image: at `targetSize`, or within `pixelBudget` pixels for
    /// `.scaleDownLargeImages` without a target.
    func decodeOptions(pixelBudget: Int) -> DecodeOptions {
        var decode = DecodeOptions(targetSize: targetSize, firstFrameOnly: options.contains(.decodeFirstFrameOnly))
        if options.contains(.scaleDownLargeImages), decode.targetSize == nil {
            let side = Int(Double(pixelBudget).squareRoot())
            decode.targetSize = PixelSize(width: side, height: side)
        }
        return decode
    }

    /// Whether a transfer may stop once the image is final at the target size.
    var stopsWhenSufficient: Bool {
        options.contains(.stopWhenSufficient) && options.isDisjoint(with: [.refreshCached, .originalData])
    }
}
