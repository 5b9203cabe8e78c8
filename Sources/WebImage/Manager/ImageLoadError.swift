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
    /// The load was cancelled (never delivered to a cancelled operation's own completion).
    case cancelled(URL)
    /// A `file:` URL could not be read ("file not found", "is a directory", "file too large").
    case file(URL, reason: String)

    /// Whether trying again later may succeed; transient failures are never remembered.
    public var isTransient: Bool {
        switch self {
        case .download(let error): return error.isTransient
        case .cancelled, .notCached, .file: return true
        case .invalidURL: return false
        }
    }

    /// The full description (URL included), safe for a terminal.
    public var description: String {
        switch self {
        case .invalidURL(let text): return "invalid URL: \(UntrustedText.sanitize(text))"
        case .download(let error): return error.description
        case .notCached(let url): return "not in cache (\(url.redactedString))"
        case .cancelled(let url): return "cancelled (\(url.redactedString))"
        case .file(let url, let reason): return "\(reason) (\(UntrustedText.sanitize(url.path)))"
        }
    }

    /// A few words for a gallery cell: "404 Not Found", "timed out waiting for the first byte (2 s)",
    /// "not an image (text/html)", "too large 30000×30000" (see `DownloadError.summary`). Control
    /// characters are already stripped.
    public var shortDescription: String {
        switch self {
        case .invalidURL: return "invalid URL"
        case .notCached: return "not cached"
        case .cancelled: return "cancelled"
        case .file(_, let reason): return reason
        case .download(let error): return error.summary
        }
    }
}
