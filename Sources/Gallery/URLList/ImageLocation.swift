import Foundation
import WebImage

/// Where an entry's image comes from: an http(s) URL or a local file.
public enum ImageLocation: Sendable, Hashable, CustomStringConvertible {
    /// An `http` or `https` URL.
    case remote(URL)
    /// An absolute local file path (from a plain path or a `file://` URL).
    case file(path: String)

    /// The URL form (`file://` for local files), for layers that take URLs.
    public var url: URL {
        switch self {
        case .remote(let url): return url
        case .file(let path): return URL(fileURLWithPath: path)
        }
    }

    /// Whether the image is a local file.
    public var isLocal: Bool {
        if case .file = self { return true }
        return false
    }

    /// The last path component ("photo.jpg"), sanitized, or the host when the path is empty.
    public var fileName: String {
        switch self {
        case .file(let path):
            return TerminalText.sanitize((path as NSString).lastPathComponent)
        case .remote(let url):
            let last = url.lastPathComponent
            if last.isEmpty || last == "/" { return TerminalText.sanitize(url.host ?? url.absoluteString) }
            return TerminalText.sanitize(last.removingPercentEncoding ?? last)
        }
    }

    /// The full location as text (URL or path), sanitized.
    public var description: String {
        switch self {
        case .remote(let url): return TerminalText.sanitize(url.redactedString)
        case .file(let path): return TerminalText.sanitize(path)
        }
    }
}
