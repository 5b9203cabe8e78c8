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
