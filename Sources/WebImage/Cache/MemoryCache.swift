import ImageCodecs
import Locking

/// The memory level of `ImageCache` (SDWebImage's `SDMemoryCache`): a thread-safe LRU of decoded
/// images bounded by total cost (`Image.cost`, bytes of pixels) and by count. An image costlier than
/// a tenth of the cost limit is not kept, so one huge picture cannot flush every thumbnail.
/// get, set and eviction are O(1).
///
/// ```swift
/// let memory = MemoryCache(costLimit: 64 << 20)
/// memory.set(image, forKey: key)
/// let hit = memory.image(forKey: key)
/// ```
public final class MemoryCache: Sendable {
    /// Default cost limit: 256 MB of pixels.
    public static let defaultCostLimit = 256 << 20
    /// Default count limit.
    public static let defaultCountLimit = 10_000

    /// The total cost the cache may hold.
    public let costLimit: Int
    /// The number of images the cache may hold.
    public let countLimit: Int
    private let list = Locked(LRUList<ImageCacheKey, Entry>())

    /// One cached image with what is known of the response it came from.
    public struct Entry: Sendable {
        /// The decoded image.
        public var image: Image
        /// Validators and freshness of its response (the memory tier must not make a stale image look fresh).
        public var metadata: ResponseMetadata
    }

    /// Creates an empty cache.
    public init(costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = MemoryCache.defaultCountLimit) {
        self.costLimit = max(0, costLimit)
        self.countLimit = max(0, countLimit)
    }

    /// The largest cost a single image may have and still be kept (10% of the limit).
    public var maxEntryCost: Int { costLimit / 10 }

    /// The image for `key`, marked most recently used; nil on a miss.
    public func image(forKey key: ImageCacheKey) -> Image? {
        list.withLock { $0.get(key)?.image }
    }

    /// The entry for `key` (image and response metadata), marked most recently used; nil on a miss.
    public func entry(forKey key: ImageCacheKey) -> Entry? {
        list.withLock { $0.get(key) }
    }

    /// Replaces the response metadata of every entry of one URL (after a revalidation), keeping recency. O(n).
    public func updateMetadata(_ metadata: ResponseMetadata, urlKey: String) {
        list.withLock { list in
            for key in list.keysByRecency where key.urlKey == urlKey {
                list.update(key) { $0.metadata = metadata }
            }
        }
    }

    /// Whether `key` is present, without touching its recency.
    public func contains(_ key: ImageCacheKey) -> Bool {
        list.withLock { $0.contains(key) }
    }

    /// Stores `image` as the most recently used entry and evicts least recently used entries until
    /// both limits hold. Returns false (and drops any older entry for `key`) when the image costs more
    /// than `maxEntryCost`.
    @discardableResult
    public func set(_ image: Image, forKey key: ImageCacheKey, metadata: ResponseMetadata = ResponseMetadata()) -> Bool {
        let cost = image.cost
        let limit = costLimit, countLimit = countLimit
        return list.withLock { list in
            guard cost <= limit / 10, countLimit > 0 else {
                list.remove(key)
                return false
            }
            list.set(key, Entry(image: image, metadata: metadata), cost: cost)
            while list.totalCost > limit || list.count > countLimit {
                list.removeLeastRecent()
            }
            return true
        }
    }

    /// Removes the entry for `key` (that target size only).
    public func removeImage(forKey key: ImageCacheKey) {
        list.withLock { _ = $0.remove(key) }
    }

    /// Removes every entry of one URL, whatever its target size. O(n).
    public func removeImages(urlKey: String) {
        list.withLock { $0.removeAll { $0.urlKey == urlKey } }
    }

    /// Empties the cache.
    public func removeAll() {
        list.withLock { $0.removeAll() }
    }

    /// Sum of the costs of the cached images.
    public var totalCost: Int { list.withLock { $0.totalCost } }

    /// Number of cached images.
    public var count: Int { list.withLock { $0.count } }

    /// Keys from most to least recently used (diagnostics and tests).
    public var keysByRecency: [ImageCacheKey] { list.withLock { $0.keysByRecency } }
}
