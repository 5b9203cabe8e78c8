import Dispatch
import Foundation
import ImageCodecs

/// Settings of an `ImageCache` (SDWebImage's `SDImageCacheConfig`). Every property has the documented
/// default; tests and the CLI override the directory, limits and clock.
///
/// ```swift
/// var config = ImageCacheConfig()
/// config.maxDiskSize = 128 << 20
/// let cache = ImageCache(config: config)
/// ```
public struct ImageCacheConfig: Sendable {
    /// Keep decoded images in the memory LRU.
    public var shouldCacheImagesInMemory = true
    /// Keep original bytes on disk.
    public var shouldUseDiskCache = true
    /// Memory limit in bytes of decoded pixels (256 MB); an image above 10% of it is not kept.
    public var memoryCostLimit = MemoryCache.defaultCostLimit
    /// Maximum number of images in memory.
    public var memoryCountLimit = MemoryCache.defaultCountLimit
    /// Age limit of disk entries, by last access (7 days).
    public var maxDiskAge = DiskCacheConfig.defaultMaxAge
    /// Size limit of the disk cache (512 MB); crossing it trims to 70% in the background.
    public var maxDiskSize = DiskCacheConfig.defaultMaxSize
    /// The disk cache directory (`$XDG_CACHE_HOME/sdgallery` or `~/.cache/sdgallery`).
    public var directory = DiskCacheConfig.defaultDirectory()
    /// Whether disk writes are fsynced before being renamed into place.
    public var fsyncDiskWrites = true
    /// The time source for disk ages and last-access stamps.
    public var clock: @Sendable () -> Date = { Date() }
    /// Turns disk bytes into an image at the requested size (default: `ImageCoders.decode`).
    public var decoder: @Sendable (Data, DecodeOptions) throws -> Image = { data, options in
        try ImageCoders.decode(data, options: options)
    }
    /// Where disk decodes run; nil means a shared concurrent queue (the decode pool).
    public var decodeQueue: DispatchQueue?
    /// Errors (corrupt entries, I/O, decode failures) and maintenance reports; called on any thread.
    public var onEvent: (@Sendable (CacheEvent) -> Void)?

    /// The defaults.
    public init() {}

    /// The disk part of this configuration.
    public var diskConfig: DiskCacheConfig {
        DiskCacheConfig(directory: directory, maxAge: maxDiskAge, maxSize: maxDiskSize, fsyncWrites: fsyncDiskWrites, clock: clock, onEvent: onEvent)
    }
}

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
    /// The stored validators, when the disk entry was read.
    public var validators: HTTPValidators?
    /// Why a disk entry could not be used (e.g. its bytes do not decode); the result is then a miss.
    public var error: CacheError?

    /// Creates a result.
    public init(image: Image? = nil, data: Data? = nil, cacheType: ImageCacheType = .none, validators: HTTPValidators? = nil, error: CacheError? = nil) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.validators = validators
        self.error = error
    }
}
