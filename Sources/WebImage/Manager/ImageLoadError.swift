import SafeText
import Foundation
import ImageCodecs

/// Why `ImageManager` could not deliver an image.
public enum ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Empty, malformed, or non-http(s) URL.
    case invalidURL(String)
    /// The download failed (HTTP status, network, size cap, decoding…).
    case download(DownloadError)
    /// `fromCacheOnly` and the cache has no image for the URL.
    case notCached(URL)
    /// The delegate's `shouldDownloadImage(for:)` said no.
    case blockedByDelegate(URL)
    /// The load was cancelled (never delivered to a cancelled operation's own completion).
    case cancelled(URL)
    /// A `file:` URL could not be read ("file not found", "is a directory", "file too large").
    case file(URL, reason: String)

    /// Whether trying again later may succeed; transient failures are never remembered.
    public var isTransient: Bool {
        switch self {
        case .download(let error): return error.isTransient
        case .cancelled, .notCached, .blockedByDelegate, .file: return true
        case .invalidURL: return false
        }
    }

    /// The full description (URL included), safe for a terminal.
    public var description: String {
        switch self {
        case .invalidURL(let text): return "invalid URL: \(UntrustedText.sanitize(text))"
        case .download(let error): return error.description
        case .notCached(let url): return "not in cache (\(url.absoluteString))"
        case .blockedByDelegate(let url): return "download refused (\(url.absoluteString))"
        case .cancelled(let url): return "cancelled (\(url.absoluteString))"
        case .file(let url, let reason): return "\(reason) (\(UntrustedText.sanitize(url.path)))"
        }
    }

    /// A few words for a gallery cell: "404 Not Found", "timed out", "not an image (text/html)",
    /// "too large 30000×30000". Control characters are already stripped.
    public var shortDescription: String {
        switch self {
        case .invalidURL: return "invalid URL"
        case .notCached: return "not cached"
        case .blockedByDelegate: return "refused"
        case .cancelled: return "cancelled"
        case .file(_, let reason): return reason
        case .download(let error):
            switch error {
            case .invalidURL: return "invalid URL"
            case .badStatus(_, let code, let reason):
                return UntrustedText.sanitize(reason.isEmpty ? "HTTP \(code)" : "\(code) \(reason)", maxLength: 40)
            case .notModified: return "not modified"
            case .timedOut: return "timed out"
            case .cannotConnect: return "cannot connect"
            case .cannotResolveHost: return "unknown host"
            case .connectionLost: return "connection lost"
            case .tooLarge(_, let limit, _): return "larger than \(limit >> 20) MB"
            case .tlsFailure: return "TLS failure"
            case .redirectRefused: return "redirect refused"
            case .cancelled: return "cancelled"
            case .decodeFailed(_, let reason): return reason.description
            case .transferFailed(_, let code, _): return "transfer failed (\(code))"
            }
        }
    }
}
