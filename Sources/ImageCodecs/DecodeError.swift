/// Why bytes could not become an `Image`. Each case carries what a user needs to understand it.
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No bytes at all.
    case empty
    /// The bytes are not an image; `kind` says what they look like ("text/html", "text", "unknown").
    case notAnImage(kind: String)
    /// A recognised image format this build cannot decode ("BMP", "TIFF", "HEIC", "AVIF", "SVG").
    case unsupportedFormat(name: String)
    /// The header announces more pixels than the configured cap; nothing was allocated.
    case tooLarge(width: Int, height: Int)
    /// Decoding needs more working memory (`needed` bytes) than the whole memory budget (`limit`,
    /// `DecodeMemory`, `--memory-limit`); nothing was allocated.
    case overMemoryBudget(needed: Int, limit: Int)
    /// The data ends before the image does.
    case truncated(format: String)
    /// The decoder rejected the data; `reason` is the library's own message.
    case corrupt(format: String, reason: String)

    /// A short, human description (safe for a terminal cell: no control characters of its own).
    public var description: String {
        switch self {
        case .empty: return "empty response"
        case .notAnImage(let kind): return "not an image (\(kind))"
        case .unsupportedFormat(let name): return "unsupported format (\(name))"
        case .tooLarge(let w, let h): return "too large \(w)×\(h)"
        case .overMemoryBudget(let needed, let limit):
            return "too large for the memory budget (\(Self.megabytes(needed)) > \(Self.megabytes(limit)))"
        case .truncated(let format): return "truncated \(format)"
        case .corrupt(let format, let reason): return "corrupt \(format): \(reason)"
        }
    }

    private static func megabytes(_ bytes: Int) -> String { "\((bytes + (1 << 20) - 1) >> 20) MB" }
}
