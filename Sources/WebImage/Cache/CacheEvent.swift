/// Something the cache reports while it works (to the log, `--stats`, or tests).
public enum CacheEvent: Sendable, Equatable {
    /// An error; for `.corruptEntry` reported once per bad file (the reader that removes it reports it).
    case error(CacheError)
    /// A trim removed `removedCount` entries (`removedBytes`) because the size limit was crossed.
    case trimmed(removedCount: Int, removedBytes: Int, newSize: Int)
    /// Expired entries and leftover temporary files were swept.
    case swept(expiredCount: Int, tempFileCount: Int)
}
