import Dispatch
import Foundation
import ImageCodecs

/// Where a query's image came from.
public enum ImageCacheType: Sendable, Hashable {
    /// Not cached.
    case none
    /// The memory LRU.
    case memory
    /// The disk cache (decoded now).
    case disk
}

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

/// Extra inputs of one query (SDWebImage's context dictionary, typed).
public struct ImageCacheQueryContext: Sendable {
    /// Decode options for a disk hit; its `targetSize` is replaced by the key's.
    public var decodeOptions: DecodeOptions
    /// Queue to call `done` on; nil calls it where the work finished (synchronously for a memory hit,
    /// on the I/O or decode queue otherwise).
    public var callbackQueue: DispatchQueue?

    /// Creates a context.
    public init(decodeOptions: DecodeOptions = DecodeOptions(), callbackQueue: DispatchQueue? = nil) {
        self.decodeOptions = decodeOptions
        self.callbackQueue = callbackQueue
    }
}

/// The answer of a query.
public struct ImageCacheQueryResult: Sendable {
    /// The image at the key's target size, nil on a miss.
    public var image: Image?
    /// The original bytes, when `.queryData` was asked and they are on disk.
    public var data: Data?
    /// Where the image came from (`.none` on a miss).
    public var cacheType: ImageCacheType
    /// The stored validators (from the memory entry or the disk entry).
    public var validators: HTTPValidators?
    /// The stored freshness of the image's response; nil when unknown (stale).
    public var freshness: HTTPFreshness?
    /// Why a disk entry could not be used (e.g. its bytes do not decode); the result is then a miss.
    public var error: CacheError?

    /// Creates a result.
    public init(image: Image? = nil, data: Data? = nil, cacheType: ImageCacheType = .none, validators: HTTPValidators? = nil,
                freshness: HTTPFreshness? = nil, error: CacheError? = nil) {
        self.freshness = freshness
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.validators = validators
        self.error = error
    }

    /// Creates a hit carrying the response metadata.
    init(image: Image?, data: Data? = nil, cacheType: ImageCacheType, metadata: ResponseMetadata) {
        self.init(image: image, data: data, cacheType: cacheType, validators: metadata.validators, freshness: metadata.freshness)
    }

    /// Whether the image may be used at `now` with no request (unknown freshness → stale).
    public func isFresh(at now: Date) -> Bool { freshness?.isFresh(at: now) ?? false }
}
