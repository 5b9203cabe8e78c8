import Foundation

/// Everything the network thread needs to configure one easy handle. Plain values: built by an
/// operation on any thread, read on the network thread.
struct CurlRequest: Sendable {
    /// The URL to fetch (http or https).
    var url: URL
    /// Request headers in send order (name, value).
    var headers: [(name: String, value: String)]
    /// Idle timeout: connect, first byte, or a body that stops moving.
    var timeout: Duration
    /// Body size cap in bytes (Content-Length and counted bytes); 0 means none.
    var maxBytes: Int64
    /// Basic auth credentials.
    var username: String?
    /// Basic auth password.
    var password: String?
    /// Use the session's shared cookie engine.
    var handleCookies: Bool
    /// Skip TLS verification.
    var allowInvalidCertificates: Bool
    /// Certificate authorities to trust (a PEM file); nil: the system's.
    var caCertificateFile: String?
    /// The proxy URL; nil: the environment's (`http_proxy`, `https_proxy`, `no_proxy`).
    var proxy: String?
    /// The netrc file for credentials ("" for `~/.netrc`); nil: none.
    var netrcFile: String?
    /// Names (lowercased) of headers sent only to `url`'s origin (scheme, host, port): a redirect
    /// elsewhere goes without them. Empty: every header follows every redirect (curl's
    /// `--location-trusted`; libcurl itself sends custom headers to every host).
    var originOnlyHeaders: Set<String> = []

    /// Slowest rate, in bytes a second, a transfer may keep over any idle timeout (15 s): 256 B/s.
    static let minimumRate = 256

    /// Slowest average body rate a transfer may keep up to its size cap (64 KB/s).
    static let minimumAverageRate: Int64 = 64 * 1024

    /// Idle timeouts in `deadline`: 4 (`ImageDownloaderConfig.deadlineIdleTimeouts`: tests shorten it).
    var deadlineIdleTimeouts = 4

    /// The whole transfer's deadline, on top of the idle timeout (a body dripped at one byte a
    /// second never looks idle): four idle timeouts plus the size cap at `minimumAverageRate`
    /// (64 MB: about 17 minutes), or ten minutes more without a cap.
    var deadline: Duration {
        timeout * deadlineIdleTimeouts + (maxBytes > 0 ? .milliseconds(maxBytes * 1000 / Self.minimumAverageRate) : .seconds(600))
    }

    /// Creates a request.
    init(
        url: URL, headers: [(name: String, value: String)] = [], timeout: Duration = .seconds(15),
        maxBytes: Int64 = 0, username: String? = nil, password: String? = nil,
        handleCookies: Bool = false, allowInvalidCertificates: Bool = false,
        caCertificateFile: String? = nil, proxy: String? = nil, netrcFile: String? = nil
    ) {
        self.netrcFile = netrcFile
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.username = username
        self.password = password
        self.handleCookies = handleCookies
        self.allowInvalidCertificates = allowInvalidCertificates
        self.caCertificateFile = caCertificateFile
        self.proxy = proxy
    }
}

/// Receives one transfer's events. Every method is called **on the network thread**, in order,
/// and must return quickly (hand work to another queue). After `transferDidComplete` nothing else
/// is called. A transfer cancelled through `CurlSession.cancel` gets no further calls at all.
protocol CurlTransferDelegate: AnyObject, Sendable {
    /// The final response head, just before the first body byte (or at completion for an empty body).
    func transferDidReceiveResponse(_ response: DownloadResponse)
    /// A chunk of body bytes; `received` counts all body bytes so far, `expected` is -1 if unknown.
    func transferDidReceive(_ chunk: Data, received: Int64, expected: Int64)
    /// The transfer ended: success (status 2xx) or a typed error.
    func transferDidComplete(_ result: Result<DownloadResponse, DownloadError>)
}
