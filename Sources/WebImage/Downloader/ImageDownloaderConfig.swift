import Foundation
import ImageCodecs

/// Settings of an `ImageDownloader` (SDWebImage's `SDWebImageDownloaderConfig`), fixed when the
/// downloader is made (`replaceConfig` swaps the whole value, with a new session); what varies per
/// load is in its `ImageRequest`.
///
/// ```swift
/// var config = ImageDownloaderConfig()
/// config.maxConcurrentDownloads = 4
/// config.downloadTimeout = 10
/// config.setValue("token", forHTTPHeaderField: "X-Token")
/// let downloader = ImageDownloader(config: config)
/// ```
public struct ImageDownloaderConfig: Sendable {
    /// Order of queued downloads of equal priority.
    public enum ExecutionOrder: Sendable, Hashable {
        /// First in, first out (default).
        case fifo
        /// Last in, first out (what a user scrolling quickly wants).
        case lifo
    }

    /// The product token sent in `User-Agent`.
    public static let userAgentProduct = "sdgallery/0.1.0"
    /// Default `Accept` header: what the coders decode, best first (`ImageCoderRegistry.acceptHeader`).
    public static let defaultAccept = ImageCoderRegistry.acceptHeader
    /// Default response size cap: 64 MB.
    public static let defaultMaxResponseBytes: Int64 = 64 << 20

    /// Transfers running at once (default 12), over all hosts.
    public var maxConcurrentDownloads = 12
    /// Transfers running at once to one host (scheme, host, port; default 6, as browsers): a slow
    /// or dead host holds at most these, and the others' images still load.
    public var maxDownloadsPerHost = 6
    /// Idle timeout in seconds: connect, first byte, or a stalled body (default 15; 0 means 15).
    public var downloadTimeout: TimeInterval = 15
    /// Order of queued downloads of equal priority.
    public var executionOrder = ExecutionOrder.fifo
    /// Response size cap in bytes, for announced and counted bodies.
    public var maxResponseBytes = ImageDownloaderConfig.defaultMaxResponseBytes
    /// Bytes of cancelled transfers' bodies kept to resume them (`Range` / `If-Range`), oldest
    /// dropped first; 0 turns resuming off.
    public var maxPartialBytes = 64 << 20
    /// Where partial bodies are kept, one file each, so a later run resumes them too (the budget
    /// then counts the files' sizes); nil keeps them in memory.
    public var partialsDirectory: URL?
    /// Idle timeouts in each transfer's overall deadline (`CurlRequest.deadline`): 4. Internal, for
    /// tests that wait for a deadline to pass.
    var deadlineIdleTimeouts = 4
    /// Minimum time between two partial decodes of one download (default 100 ms).
    public var progressiveInterval: Duration = .milliseconds(100)
    /// Pixel budget for `.scaleDownLargeImages` (default 16 megapixels).
    public var scaleDownPixelBudget = 16 * 1024 * 1024
    /// Basic auth user name (sent with every request when set).
    public var username: String?
    /// Basic auth password.
    public var password: String?
    /// A PEM file of certificate authorities to trust instead of the system's (curl's `--cacert`),
    /// e.g. a private CA; nil: the system's store.
    public var caCertificateFile: String?
    /// Read credentials from a netrc file (curl's `--netrc-optional`): "" for `~/.netrc`, a path for
    /// another file; nil: no netrc. A password set here (`username`/`password`) wins.
    public var netrcFile: String?
    /// Send the downloader's own headers (`headers` but the defaults: the gallery's `--header`) to every host a redirect reaches (curl's `--location-trusted`); false
    /// (the default): only to the requested URL's origin (scheme, host, port).
    public var headersFollowRedirects = false
    /// The proxy for every request (curl's `--proxy`, e.g. `http://127.0.0.1:8888`); nil: libcurl reads
    /// `http_proxy`, `https_proxy` and `no_proxy` from the environment itself.
    public var proxy: String?
    /// Headers sent with every request (`Accept` and `User-Agent` by default); a request's own
    /// headers override them by name (case-insensitively).
    public var headers: [String: String] = ImageDownloaderConfig.defaultHeaders
    /// Last word on each request's headers: (url, headers) → headers to send.
    public var headersFilter: (@Sendable (URL, [String: String]) -> [String: String])?
    /// The operation type (tests inject their own).
    package var operationType: any DownloadOperation.Type = ImageDownloadOperation.self
    /// The decoders (tests inject deterministic fakes).
    public var decoding = ImageDecoding.standard

    /// Creates the default configuration.
    public init() {}

    /// The default configuration.
    public static var `default`: ImageDownloaderConfig { ImageDownloaderConfig() }

    /// Sets (or with nil removes) a header sent with every request, replacing one of the same name
    /// in any case.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        if let existing = headers.keys.first(where: { $0.caseInsensitiveCompare(field) == .orderedSame }) {
            headers[existing] = nil
        }
        if let value { headers[field] = value }
    }

    /// `downloadTimeout` as a duration, with 0 (or less) meaning 15 s.
    var effectiveTimeout: Duration {
        downloadTimeout > 0 ? .milliseconds(Int64((downloadTimeout * 1000).rounded())) : .seconds(15)
    }

    /// The default request headers.
    static var defaultHeaders: [String: String] {
        ["Accept": defaultAccept, "User-Agent": "\(userAgentProduct) (\(NetworkLibrary.curlVersion.split(separator: " ").first ?? "libcurl"))"]
    }
}
