import Foundation
import ImageCodecs

/// One image load as the whole stack sees it (modelled on Nuke's `ImageRequest`): the URL, the size
/// to decode to, where the download queues, and what each layer does with it — `cache` (what the
/// manager and the cache may do), `delivery` (how the bytes become images and which reach the
/// caller) and `transfer` (how the download is made). Each layer reads its own value; nothing maps
/// one option set onto another on the way down.
///
/// ```swift
/// var request = ImageRequest(url: url, targetSize: PixelSize(width: 160, height: 96), priority: .high,
///                            delivery: [.progressiveLoad, .stopWhenSufficient])
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
    /// What the manager and the cache may do: where to look, where to store, failed URLs, refresh.
    public var cache: CachePolicy
    /// How the bytes become an image and what reaches the caller: partial images, the early stop,
    /// scaling down, an animation's first frame only.
    public var delivery: DeliveryOptions
    /// How the download is made: no-cache, cookies, certificate checks (they decide which requests
    /// may share one transfer, `TransferKey`).
    public var transfer: TransferOptions

    /// Creates a request.
    public init(url: URL?, targetSize: PixelSize? = nil, priority: DownloadPriority = .normal,
                cache: CachePolicy = CachePolicy(), delivery: DeliveryOptions = [], transfer: TransferOptions = [],
                headers: [String: String] = [:], queueOrder: Int? = nil) {
        self.url = url
        self.targetSize = targetSize
        self.priority = priority
        self.cache = cache
        self.delivery = delivery
        self.transfer = transfer
        self.headers = headers
        self.queueOrder = queueOrder
    }

    /// Creates a request for `string` as a URL (nil when it is not one).
    public init(string: String, targetSize: PixelSize? = nil, priority: DownloadPriority = .normal,
                cache: CachePolicy = CachePolicy(), delivery: DeliveryOptions = [], transfer: TransferOptions = []) {
        self.init(url: URL(string: string), targetSize: targetSize, priority: priority, cache: cache, delivery: delivery, transfer: transfer)
    }

    /// How the bytes become an image: at `targetSize`, or within `pixelBudget` pixels for
    /// `.scaleDownLargeImages` without a target.
    func decodeOptions(pixelBudget: Int) -> DecodeOptions {
        var decode = DecodeOptions(targetSize: targetSize, firstFrameOnly: delivery.contains(.decodeFirstFrameOnly))
        if delivery.contains(.scaleDownLargeImages), decode.targetSize == nil {
            let side = Int(Double(pixelBudget).squareRoot())
            decode.targetSize = PixelSize(width: side, height: side)
        }
        return decode
    }

    /// Whether a transfer may stop once the image is final at the target size.
    var stopsWhenSufficient: Bool {
        delivery.contains(.stopWhenSufficient) && !cache.refreshCached && !cache.originalData
    }
}
