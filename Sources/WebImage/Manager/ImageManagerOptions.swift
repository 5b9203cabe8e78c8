/// Options for one `ImageManager.loadImage` call (SDWebImage's `SDWebImageOptions`).
public struct ImageManagerOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Try a URL again even if it failed before (it is otherwise answered from the failed-URL list).
    public static let retryFailed = ImageManagerOptions(rawValue: 1 << 0)
    /// Download at low priority (prefetching).
    public static let lowPriority = ImageManagerOptions(rawValue: 1 << 1)
    /// Store in memory only, never on disk.
    public static let cacheMemoryOnly = ImageManagerOptions(rawValue: 1 << 2)
    /// Deliver partial images while the download runs (`finished == false`).
    public static let progressiveLoad = ImageManagerOptions(rawValue: 1 << 3)
    /// Deliver the cached image at once, then revalidate with the server (ETag / Last-Modified).
    public static let refreshCached = ImageManagerOptions(rawValue: 1 << 4)
    /// Accepted for API parity; a terminal program has no background state, so it has no effect.
    public static let continueInBackground = ImageManagerOptions(rawValue: 1 << 5)
    /// Send and store cookies (curl's cookie engine, shared across transfers).
    public static let handleCookies = ImageManagerOptions(rawValue: 1 << 6)
    /// Turn TLS certificate verification off for this load.
    public static let allowInvalidSSLCertificates = ImageManagerOptions(rawValue: 1 << 7)
    /// Download at high priority (what is on screen).
    public static let highPriority = ImageManagerOptions(rawValue: 1 << 8)
    /// Let `transformDownloadedImage` see animated images too.
    public static let transformAnimatedImage = ImageManagerOptions(rawValue: 1 << 10)
    /// `ImageSlot`: do not assign the image; hand it to the completion instead.
    public static let avoidAutoSetImage = ImageManagerOptions(rawValue: 1 << 11)
    /// Decode within the pixel budget of the target size even without one (large images).
    public static let scaleDownLargeImages = ImageManagerOptions(rawValue: 1 << 12)
    /// Answer from the cache only; a miss completes with `ImageLoadError.notCached`.
    public static let fromCacheOnly = ImageManagerOptions(rawValue: 1 << 13)
    /// Skip the cache query; always download (the result is still stored).
    public static let fromLoaderOnly = ImageManagerOptions(rawValue: 1 << 14)
    /// With `.progressiveLoad`: the download stops once the image is final at the target size and
    /// keeps the rest resumable (`ImageDownloaderOptions.stopWhenSufficient`); such an image is
    /// kept in memory only. Ignored with `.refreshCached`.
    public static let stopWhenSufficient = ImageManagerOptions(rawValue: 1 << 15)
}
