import SafeText
import Foundation
import ImageCodecs

/// Why a download failed. Every case carries the URL and, where curl was involved, curl's own
/// message (already stripped of control characters: reason phrases and messages come from the
/// network and are untrusted text).
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is missing, malformed, or not http/https.
    case invalidURL(String)
    /// The server answered with a status outside 200–299 (other than 304).
    case badStatus(url: URL, code: Int, reason: String)
    /// The server answered 304 Not Modified to a conditional request: the caller's stored copy is
    /// still valid. Carries the validators of the 304 response.
    case notModified(url: URL, validators: HTTPValidators)
    /// No bytes moved for longer than the download timeout (connect, first byte, or a stalled body).
    case timedOut(url: URL, message: String)
    /// The TCP connection could not be made (refused, unreachable).
    case cannotConnect(url: URL, message: String)
    /// The host name did not resolve.
    case cannotResolveHost(url: URL, message: String)
    /// The connection broke or the body ended before its announced length.
    case connectionLost(url: URL, message: String)
    /// The body is larger than the size cap (announced or counted); it was not buffered.
    case tooLarge(url: URL, limit: Int64, message: String)
    /// The TLS handshake or certificate verification failed.
    case tlsFailure(url: URL, message: String)
    /// A redirect went to a refused scheme (anything but http/https) or there were too many.
    case redirectRefused(url: URL, message: String)
    /// The download was cancelled.
    case cancelled(url: URL)
    /// The bytes arrived but are not a decodable image.
    case decodeFailed(url: URL, reason: DecodeError)
    /// Any other transfer failure; `curlCode` is libcurl's CURLcode.
    case transferFailed(url: URL, curlCode: Int, message: String)

    /// The URL the error is about (nil only for an unparseable URL).
    public var url: URL? {
        switch self {
        case .invalidURL(let text): return URL(string: text)
        case .badStatus(let url, _, _), .notModified(let url, _), .timedOut(let url, _),
             .cannotConnect(let url, _), .cannotResolveHost(let url, _), .connectionLost(let url, _),
             .tooLarge(let url, _, _), .tlsFailure(let url, _), .redirectRefused(let url, _),
             .cancelled(let url), .decodeFailed(let url, _), .transferFailed(let url, _, _):
            return url
        }
    }

    /// Whether trying again later may succeed (timeouts, DNS and connect failures, lost connections,
    /// cancellation, 5xx/408/429 answers). The manager keeps non-transient failures in its
    /// failed-URL list.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .cannotConnect, .cannotResolveHost, .connectionLost, .cancelled: return true
        case .badStatus(_, let code, _): return code >= 500 || code == 408 || code == 429
        case .transferFailed: return true
        case .invalidURL, .notModified, .tooLarge, .tlsFailure, .redirectRefused, .decodeFailed: return false
        }
    }

    /// A one-line description, safe for a terminal cell.
    public var description: String {
        switch self {
        case .invalidURL(let text): return "invalid URL: \(UntrustedText.sanitize(text))"
        case .badStatus(let url, let code, let reason): return "HTTP \(code) \(reason) (\(url.absoluteString))"
        case .notModified(let url, _): return "not modified (\(url.absoluteString))"
        case .timedOut(let url, let m): return "timed out: \(m) (\(url.absoluteString))"
        case .cannotConnect(let url, let m): return "cannot connect: \(m) (\(url.absoluteString))"
        case .cannotResolveHost(let url, let m): return "cannot resolve host: \(m) (\(url.absoluteString))"
        case .connectionLost(let url, let m): return "connection lost: \(m) (\(url.absoluteString))"
        case .tooLarge(let url, let limit, _): return "larger than \(limit) bytes (\(url.absoluteString))"
        case .tlsFailure(let url, let m): return "TLS failure: \(m) (\(url.absoluteString))"
        case .redirectRefused(let url, let m): return "redirect refused: \(m) (\(url.absoluteString))"
        case .cancelled(let url): return "cancelled (\(url.absoluteString))"
        case .decodeFailed(let url, let reason): return "\(reason) (\(url.absoluteString))"
        case .transferFailed(let url, let code, let m): return "transfer failed (\(code)): \(m) (\(url.absoluteString))"
        }
    }
}
