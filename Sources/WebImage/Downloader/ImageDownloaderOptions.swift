/// Per-request switches (SDWebImage's `SDWebImageDownloaderOptions`).
public struct ImageDownloaderOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Start at `.low` priority.
    public static let lowPriority = ImageDownloaderOptions(rawValue: 1 << 0)
    /// Deliver partial images while bytes arrive (`isFinished == false`), then the final one.
    public static let progressiveLoad = ImageDownloaderOptions(rawValue: 1 << 1)
    /// Accepted for API parity. There is no HTTP URL cache under libcurl: the image cache plays
    /// that role, so this has no effect.
    public static let useURLCache = ImageDownloaderOptions(rawValue: 1 << 2)
    /// Ask intermediaries for a fresh copy (`Cache-Control: no-cache`, `Pragma: no-cache`).
    public static let ignoreCachedResponse = ImageDownloaderOptions(rawValue: 1 << 3)
    /// Accepted for API parity; a terminal program has no background mode, so it has no effect.
    public static let continueInBackground = ImageDownloaderOptions(rawValue: 1 << 4)
    /// Store cookies from responses and send them back (curl's cookie engine, shared by every
    /// transfer of the downloader that uses this option).
    public static let handleCookies = ImageDownloaderOptions(rawValue: 1 << 5)
    /// Skip TLS certificate and host name verification. Only with this option.
    public static let allowInvalidSSLCertificates = ImageDownloaderOptions(rawValue: 1 << 6)
    /// Start at `.high` priority.
    public static let highPriority = ImageDownloaderOptions(rawValue: 1 << 7)
    /// Decode within the downloader's pixel budget (`ImageDownloaderConfig.scaleDownPixelBudget`)
    /// when the context asks for no target size.
    public static let scaleDownLargeImages = ImageDownloaderOptions(rawValue: 1 << 8)
    /// With `.progressiveLoad`: stop the transfer as soon as the image is final at the target size
    /// (`IncrementalDecoding.sufficientImage()`: a progressive JPEG's DC scans for a target at most
    /// 1/8 of it) and keep the body so far for a later `Range` request. The result then says
    /// `isWholeBody == false`. Only when every handler of the transfer asks for it at the same size.
    public static let stopWhenSufficient = ImageDownloaderOptions(rawValue: 1 << 9)

    /// The initial handler priority these options ask for.
    public var priority: DownloadPriority {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return .normal
    }
}
