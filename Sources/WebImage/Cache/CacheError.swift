/// What went wrong in the image cache. Each case names the file or key and the reason, so the log
/// and `--stats` can show something a user can act on.
public enum CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cache directory could not be created or opened.
    case directoryUnavailable(path: String, reason: String)
    /// A stored entry failed its length or checksum check (torn, truncated or garbled); it was removed.
    case corruptEntry(file: String, reason: String)
    /// A file operation failed (`operation` is the system call, `reason` the `strerror` text).
    case io(operation: String, path: String, reason: String)
    /// Bytes found on disk could not be decoded.
    case decodeFailed(key: String, reason: String)

    /// A short description.
    public var description: String {
        switch self {
        case .directoryUnavailable(let path, let reason): return "cache directory \(path) unavailable: \(reason)"
        case .corruptEntry(let file, let reason): return "corrupt cache entry \(file): \(reason)"
        case .io(let operation, let path, let reason): return "\(operation) \(path): \(reason)"
        case .decodeFailed(let key, let reason): return "cached bytes of \(key) do not decode: \(reason)"
        }
    }
}
