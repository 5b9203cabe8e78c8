import Dispatch
import Foundation
import ImageCodecs

/// How to query the cache (SDWebImage's `SDImageCacheOptions`).
public struct ImageCacheQueryOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Also return the original bytes (read from disk even after a memory hit).
    public static let queryData = ImageCacheQueryOptions(rawValue: 1 << 0)
    /// Look in memory only.
    public static let memoryOnly = ImageCacheQueryOptions(rawValue: 1 << 1)
    /// Skip memory, look on disk only.
    public static let diskOnly = ImageCacheQueryOptions(rawValue: 1 << 2)
    /// Do not put an image decoded from disk into memory.
    public static let skipMemoryStoreOnDiskHit = ImageCacheQueryOptions(rawValue: 1 << 3)
}
