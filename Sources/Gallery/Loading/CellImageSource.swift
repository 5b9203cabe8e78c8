import ImageCodecs
import WebImage

/// What a load reports for a cell.
public enum CellImageUpdate: Sendable {
    /// Bytes received so far; `expected` nil when unknown.
    case progress(received: Int64, expected: Int64?)
    /// A progressive (partial) image, more to come.
    case partial(Image)
    /// The final image and what is known about it.
    case final(Image, ImageDetails)
    /// The load failed; the message is short (it is sanitized again before display).
    case failed(String)
    /// A refresh found the image unchanged (HTTP 304): keep what is shown.
    case notModified
}

/// Facts about a loaded image, shown in captions and the full view.
public struct ImageDetails: Sendable, Hashable {
    /// The image's own pixel size (before any scaled decode).
    public var pixelSize: PixelSize?
    /// Encoded size in bytes.
    public var byteCount: Int64?
    /// Format name ("JPEG").
    public var format: String?
    /// Where it came from ("memory", "disk", "network", "file").
    public var origin: String?

    /// Creates details.
    public init(pixelSize: PixelSize? = nil, byteCount: Int64? = nil, format: String? = nil, origin: String? = nil) {
        self.pixelSize = pixelSize
        self.byteCount = byteCount
        self.format = format
        self.origin = origin
    }
}

/// What one bind asks of its load on top of the gallery's defaults for every load (the binding's
/// layer of a request; the defaults — from the command line, `WebImageStack.requestDefaults` — are
/// the source's, kept there once).
public struct BindOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Revalidate the cached image with the server (`r`).
    public static let refresh = BindOptions(rawValue: 1 << 0)
    /// A still: decode an animation's first frame only (`PrefetchRequest.animated` false: the grid
    /// and the list without `--animate`).
    public static let firstFrameOnly = BindOptions(rawValue: 1 << 1)
}

/// The seam between the gallery and whatever loads images (`ManagerImageSource`: the
/// ImageManager/ImageSlot binding). Called on the UI thread only, and calls back there only.
///
/// The source is the one place that decides staleness: after `cancel(slot:)`, or a new `bind` of the
/// same slot, no update of the earlier load is ever delivered.
public protocol CellImageSource: AnyObject {
    /// Starts loading `item` for `slot`, to fit `targetSize`, at high priority (visible), replacing the
    /// slot's previous load. `onUpdate` runs on the UI thread (inline for a memory-cache hit), only
    /// while this load is the slot's current one.
    /// `options`: what this bind asks on top of the source's defaults (a still, a refresh for `r`).
    func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: BindOptions,
              onUpdate: @escaping (CellImageUpdate) -> Void)
    /// Starts a batch of binds for one screen, given in order of importance: their downloads go out
    /// in that order, before those of every earlier batch still waiting (a browser's page order:
    /// the newest screen first, and within it the selection, then its neighbours).
    func beginScreen()
    /// Cancels the slot's load; no update of it follows.
    func cancel(slot: SlotID)
    /// Warms the cache for an item that will soon be visible, at low priority.
    func prefetch(_ request: PrefetchRequest, item: GalleryItem)
    /// Cancels a prefetch (the user turned around).
    func cancelPrefetch(_ request: PrefetchRequest)
    /// Cancels everything (on quit).
    func cancelAll()
    /// While held, no new download starts (binds still show what the caches have; running transfers
    /// go on): the gallery holds them while the user flings through screens, so screens flown past
    /// cost no requests (as a scrolling list pauses its image requests during a fling).
    func holdDownloads(_ hold: Bool)
    /// While held, prefetches wait (in order) instead of starting: the gallery holds them until the
    /// screen has been complete for a pause, so a fling leaves no prefetch of a screen flown past.
    func holdPrefetches(_ hold: Bool)
    /// Whether a started prefetch has not ended yet (it may still be looking in the disk cache,
    /// before any download counts it): the settled signal waits for it, as for a visible load.
    var prefetchesRunning: Bool { get }
    /// The image a bind of `item` at `targetSize` would show at once (the memory cache's), if any:
    /// the gallery encodes the next screen's pictures ahead with it while idle.
    func cachedImage(for item: GalleryItem, targetSize: PixelSize) -> Image?
}

extension CellImageSource {
    /// Sources without download queues have nothing to order.
    public func beginScreen() {}
    /// Sources without downloads have nothing to hold.
    public func holdDownloads(_ hold: Bool) {}
    /// Sources without prefetches have nothing to hold.
    public func holdPrefetches(_ hold: Bool) {}
    /// Sources without prefetches have none running.
    public var prefetchesRunning: Bool { false }
    /// Sources without a memory cache have nothing at hand.
    public func cachedImage(for item: GalleryItem, targetSize: PixelSize) -> Image? { nil }
}
