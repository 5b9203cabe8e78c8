import Foundation
import Locking

/// URLs whose last load failed for a non-transient reason, with the error, for a limited time
/// (SDWebImage keeps them forever; here entries expire, and a success clears them).
public final class FailedURLRegistry: Sendable {
    private struct Entry {
        var error: ImageLoadError
        var failedAt: Date
    }

    private let entries = Locked<[String: Entry]>([:])
    private let lifetime: TimeInterval
    private let clock: @Sendable () -> Date

    /// Creates a registry whose entries last `lifetime` seconds by `clock`.
    public init(lifetime: TimeInterval = 600, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.lifetime = lifetime
        self.clock = clock
    }

    /// The remembered error for `key`, if one is still valid (expired entries are dropped).
    public func error(forKey key: String) -> ImageLoadError? {
        let now = clock()
        return entries.withLock { table in
            guard let entry = table[key] else { return nil }
            if now.timeIntervalSince(entry.failedAt) >= lifetime {
                table[key] = nil
                return nil
            }
            return entry.error
        }
    }

    /// Records a failure; transient errors are never remembered.
    public func record(_ error: ImageLoadError, forKey key: String) {
        guard !error.isTransient else { return }
        let now = clock()
        entries.withLock { $0[key] = Entry(error: error, failedAt: now) }
    }

    /// Forgets `key` (after a success).
    public func remove(_ key: String) { entries.withLock { _ = $0.removeValue(forKey: key) } }

    /// Forgets everything.
    public func removeAll() { entries.withLock { $0.removeAll() } }

    /// How many URLs are remembered (expired ones included until looked up).
    public var count: Int { entries.withLock { $0.count } }
}
