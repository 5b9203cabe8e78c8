import Foundation
import ImageCodecs

/// One transfer shared by every handler asking for the same URL (SDWebImage's
/// `SDWebImageDownloaderOperation` protocol). `ImageDownloadOperation` is the default; tests and
/// special cases inject their own type through `ImageDownloaderConfig.operationType`.
///
/// Contract:
/// - `start()` is called at most once, by the downloader, when a slot is free.
/// - `setup.onFinish` must be called **exactly once**, when the operation stops using its slot
///   (transfer ended, failed, or cancelled), and never while holding a lock the downloader may need.
/// - A handler removed with `removeHandler` is never called afterwards. `cancel()` ends every
///   handler with `.failure(.cancelled)`.
/// - Once finished or cancelled, `addHandler` returns false: the operation is never reused.
package protocol DownloadOperation: Cancellable {
    /// Creates a pending operation.
    init(setup: DownloadOperationSetup)
    /// The URL being downloaded.
    var url: URL { get }
    /// The highest priority among the current handlers.
    var priority: DownloadPriority { get }
    /// Whether the transfer has ended (successfully or not).
    var isFinished: Bool { get }
    /// Whether the operation was cancelled.
    var isCancelled: Bool { get }
    /// Adds a handler; false if the operation no longer accepts handlers (finished/cancelled).
    func addHandler(_ handler: DownloadHandler) -> Bool
    /// Removes one handler silently; when it was the last one, the operation cancels its transfer
    /// (calling `onFinish`) and this returns true.
    @discardableResult func removeHandler(id: UInt64) -> Bool
    /// Changes one handler's priority; returns the operation's new priority.
    func setPriority(_ priority: DownloadPriority, forHandler id: UInt64) -> DownloadPriority
    /// Starts the transfer.
    func start()
    /// Cancels the transfer; every remaining handler gets `.failure(.cancelled)`.
    func cancel()
}

/// One caller's interest in a download: its priority, decode size and callbacks.
package struct DownloadHandler: Sendable {
    /// Unique within the downloader; the token carries it.
    package let id: UInt64
    /// This handler's priority.
    package var priority: DownloadPriority
    /// How this handler wants the image decoded (its context's options).
    package let decodeOptions: DecodeOptions
    /// Progress callback, per received chunk.
    package let progress: DownloadProgressHandler?
    /// Partial and final results, or the error.
    package let completion: DownloadCompletionHandler
    /// Whether this handler takes an image that is final at its size before the body ends
    /// (`ImageRequest.DeliveryOptions.stopWhenSufficient`).
    package var stopsWhenSufficient = false

    /// Creates a handler.
    package init(
        id: UInt64, priority: DownloadPriority, decodeOptions: DecodeOptions,
        progress: DownloadProgressHandler?, completion: @escaping DownloadCompletionHandler
    ) {
        self.id = id
        self.priority = priority
        self.decodeOptions = decodeOptions
        self.progress = progress
        self.completion = completion
    }
}

/// Everything an operation needs, handed over by the downloader.
package struct DownloadOperationSetup: Sendable {
    /// The URL to fetch.
    package let url: URL
    /// How the request that created the operation wants its images delivered (partial images,
    /// incremental decoding).
    package let delivery: ImageRequest.DeliveryOptions
    /// How the transfer is made; every request that joins it has the same (`TransferKey`).
    package let transfer: ImageRequest.TransferOptions
    /// How the request that created the operation decodes (partial images are decoded this way).
    package let decodeOptions: DecodeOptions
    /// The final request headers, after defaults, context headers and the filter, sorted by name.
    package let headers: [(name: String, value: String)]
    /// Idle timeout.
    package let timeout: Duration
    /// Response size cap in bytes.
    package let maxResponseBytes: Int64
    /// Decoders to use (injectable).
    package let decoding: ImageDecoding
    /// Minimum time between two partial decodes.
    package let progressiveInterval: Duration
    /// Where to post activity events.
    package let events: DownloadEventCenter
    /// Call exactly once, passing the operation itself, when it stops using its download slot.
    package let onFinish: @Sendable (any DownloadOperation) -> Void
    /// Basic auth credentials.
    let username: String?
    let password: String?
    /// The network thread.
    let session: CurlSession
    /// The downloader's counters (bytes received are added by the operation).
    var statistics = DownloadStatistics()
    /// Certificate authorities to trust (a PEM file); nil: the system's.
    var caCertificateFile: String?
    /// The netrc file for credentials ("" for `~/.netrc`); nil: none.
    var netrcFile: String?
    /// Header names (lowercased) sent only to the URL's own origin (`CurlRequest.originOnlyHeaders`).
    var originOnlyHeaders: Set<String> = []
    /// The proxy; nil: the environment's.
    var proxy: String?
    /// Where a cancelled transfer leaves its partial body, and a new one finds it; nil: no resuming.
    var partials: PartialDownloadStore?
    /// Idle timeouts in a transfer's deadline (`CurlRequest.deadlineIdleTimeouts`).
    var deadlineIdleTimeouts = 4

    /// Whether the request is conditional (a revalidation): such a request is never resumed.
    var isConditional: Bool {
        headers.contains { ["if-none-match", "if-modified-since"].contains($0.name.lowercased()) }
    }

    /// The `CurlRequest` for this operation.
    var curlRequest: CurlRequest {
        var request = CurlRequest(
            url: url, headers: headers, timeout: timeout, maxBytes: maxResponseBytes,
            username: username, password: password, handleCookies: transfer.contains(.handleCookies),
            allowInvalidCertificates: transfer.contains(.allowInvalidSSLCertificates),
            caCertificateFile: caCertificateFile, proxy: proxy, netrcFile: netrcFile)
        request.originOnlyHeaders = originOnlyHeaders
        request.deadlineIdleTimeouts = deadlineIdleTimeouts
        return request
    }
}
