import Dispatch
import Foundation
import ImageCodecs

/// The two-level image cache (SDWebImage's `SDImageCache`): decoded images in a cost-bounded memory
/// LRU, original bytes on disk plus decoded thumbnails for target sizes (`DecodedThumbnail`), and,
/// for a URL with no original on disk, the early image a transfer stopped at (`EarlyImageEntry`).
/// Queries look in memory synchronously, then on disk on the I/O queue (a matching thumbnail first),
/// then decode at the key's target size on the decode queue; with no original, the early image
/// answers when it holds the target.
///
/// ```swift
/// let cache = ImageCache(config: ImageCacheConfig())
/// let key = ImageCacheKey(url: url, targetSize: PixelSize(width: 160, height: 96))
/// let op = cache.queryCacheOperation(forKey: key) { result in
///     if let image = result.image { show(image) } else { download() }
/// }
/// op.cancel()  // the cell scrolled away: `done` will not be called
/// ```
public final class ImageCache: Sendable {
    /// The configuration.
    public let config: ImageCacheConfig
    /// The memory level.
    public let memory: MemoryCache
    /// The disk level, nil when disabled or when the directory could not be opened.
    public let disk: DiskCache?
    /// Why the disk level is unavailable, if it was wanted.
    public let diskError: CacheError?
    /// Serial queue of every disk read and write of this cache (keeps store-then-query ordered).
    let ioQueue = DispatchQueue(label: "sdgallery.imagecache.io", qos: .userInitiated)
    /// Every block queued on `ioQueue`, so `waitUntilIdle` also covers blocks that queued blocks
    /// queue (a store queues its decoded thumbnail's store).
    let ioWork = DispatchGroup()
    let decodeQueue: DispatchQueue

    private static let sharedDecodeQueue = DispatchQueue(label: "sdgallery.imagecache.decode", qos: .userInitiated, attributes: .concurrent)

    /// Creates a cache. A disk directory that cannot be opened disables the disk level, reports
    /// `.directoryUnavailable` through `onEvent`, and is kept in `diskError`.
    public init(config: ImageCacheConfig = ImageCacheConfig()) {
        self.config = config
        memory = MemoryCache(costLimit: config.memoryCostLimit, countLimit: config.memoryCountLimit)
        decodeQueue = config.decodeQueue ?? Self.sharedDecodeQueue
        if config.shouldUseDiskCache {
            do {
                disk = try DiskCache(config: config.diskConfig)
                diskError = nil
            } catch {
                disk = nil
                diskError = error
                config.onEvent?(.error(error))
            }
        } else {
            disk = nil
            diskError = nil
        }
    }

    /// Looks `key` up: memory first (synchronously: `done` may run before this returns), then disk on
    /// the I/O queue, decoding at `key.targetSize` on the decode queue. A cancelled operation never
    /// calls `done`. Of a request's cache policy the cache reads: `read` (`.memoryOnly`: no disk
    /// read), `refreshCached` (the disk entry's validators even after a memory hit) and `originalData`
    /// (the disk entry's bytes in `data`; not decoded when memory has no image: `image` is then nil).
    /// `callbackQueue`: where `done` runs; nil runs it where the work finished.
    @discardableResult
    package func queryCacheOperation(
        forKey key: ImageCacheKey,
        policy: ImageRequest.CachePolicy = ImageRequest.CachePolicy(),
        callbackQueue: DispatchQueue? = nil,
        done: @escaping @Sendable (ImageCacheQueryResult) -> Void
    ) -> ImageCacheQueryOperation {
        let operation = ImageCacheQueryOperation(done: done)
        let deliver: @Sendable (ImageCacheQueryResult) -> Void = { result in
            if let queue = callbackQueue {
                queue.async { operation.finish(result) }
            } else {
                operation.finish(result)
            }
        }
        let readsEntry = policy.refreshCached || policy.originalData
        let wantsData = policy.originalData
        let memoryEntry = config.shouldCacheImagesInMemory ? memory.entry(forKey: key) : nil
        let memoryImage = memoryEntry?.image
        if let memoryEntry, !readsEntry {
            deliver(ImageCacheQueryResult(image: memoryEntry.image, cacheType: .memory, metadata: memoryEntry.metadata))
            return operation
        }
        guard let disk, policy.read != .memoryOnly else {
            deliver(memoryEntry.map { ImageCacheQueryResult(image: $0.image, cacheType: .memory, metadata: $0.metadata) }
                    ?? ImageCacheQueryResult())
            return operation
        }
        ioQueue.async(group: ioWork) { [self] in
            guard !operation.isCancelled else { return }
            if memoryImage == nil, !readsEntry, let image = thumbnail(forKey: key, disk: disk) {
                // The thumbnail follows its original's freshness.
                let metadata = disk.metadata(forKey: key.diskKey) ?? ResponseMetadata()
                if config.shouldCacheImagesInMemory { memory.set(image, forKey: key, metadata: metadata) }
                deliver(ImageCacheQueryResult(image: image, cacheType: .disk, metadata: metadata))
                return
            }
            let identity = disk.fileIdentity(forKey: key.diskKey)
            guard let entry = disk.entry(forKey: key.diskKey) else {
                if memoryImage == nil, !readsEntry, let early = earlyImage(forKey: key, disk: disk) {
                    if config.shouldCacheImagesInMemory { memory.set(early.image, forKey: key, metadata: early.metadata) }
                    deliver(ImageCacheQueryResult(image: early.image, cacheType: .disk, metadata: early.metadata))
                    return
                }
                deliver(memoryEntry.map { ImageCacheQueryResult(image: $0.image, cacheType: .memory, metadata: $0.metadata) }
                        ?? ImageCacheQueryResult())
                return
            }
            let data = readsEntry ? entry.data : nil
            let metadata = ResponseMetadata(validators: entry.validators, freshness: entry.freshness)
            if let memoryImage {
                deliver(ImageCacheQueryResult(image: memoryImage, data: data, cacheType: .memory, metadata: metadata))
                return
            }
            if wantsData {
                deliver(ImageCacheQueryResult(image: nil, data: data, cacheType: .disk, metadata: metadata))
                return
            }
            decodeQueue.async { [self] in
                guard !operation.isCancelled else { return }
                do {
                    let image = try config.decoder(entry.data, key.decodeOptions)
                    if config.shouldCacheImagesInMemory { memory.set(image, forKey: key, metadata: metadata) }
                    // Queue the thumbnail write before delivering, so a caller's waitUntilIdle covers it.
                    if let identity { storeThumbnail(image, forKey: key, originalBytes: entry.data.count, identity: identity) }
                    deliver(ImageCacheQueryResult(image: image, data: data, cacheType: .disk, metadata: metadata))
                } catch {
                    let failure = CacheError.decodeFailed(key: key.diskKey, reason: "\(error)")
                    config.onEvent?(.error(failure))
                    deliver(ImageCacheQueryResult(data: data, cacheType: .none, validators: entry.validators, error: failure))
                }
            }
        }
        return operation
    }

    /// Stores `image` in memory (now) under `key`, and `data` (the original bytes) on disk under
    /// `key.diskKey` on the I/O queue when `toDisk`; the original supersedes the URL's early image,
    /// which is removed. Without `data`, only an early image (`image.earlyTier`) goes to disk, as the
    /// URL's early entry (`EarlyImageEntry`, with `validators` and the freshness of
    /// `responseHeaders`), and only while the URL has no original there. `completion` runs once both
    /// are done, on the I/O queue.
    public func store(
        image: Image?, data: Data?, forKey key: ImageCacheKey, toDisk: Bool = true,
        validators: HTTPValidators = HTTPValidators(), contentType: String? = nil,
        responseHeaders: [String: String]? = nil, completion: (@Sendable () -> Void)? = nil
    ) {
        if let image, config.shouldCacheImagesInMemory {
            let freshness = responseHeaders.map { HTTPFreshness(headers: $0, receivedAt: config.clock()) }
            memory.set(image, forKey: key, metadata: ResponseMetadata(validators: validators, freshness: freshness))
        }
        guard toDisk, let disk, data != nil || image?.earlyTier != nil else {
            completion?()
            return
        }
        ioQueue.async(group: ioWork) { [self] in
            do throws(CacheError) {
                if let data {
                    try disk.store(data, forKey: key.diskKey, validators: validators, contentType: contentType, responseHeaders: responseHeaders)
                    disk.remove(forKey: EarlyImageEntry.diskKey(for: key))
                    if let image, let identity = disk.fileIdentity(forKey: key.diskKey) {
                        storeThumbnail(image, forKey: key, originalBytes: data.count, identity: identity)
                    }
                } else if let image {
                    try storeEarly(image, forKey: key, disk: disk, validators: validators, contentType: contentType,
                                   responseHeaders: responseHeaders)
                }
            } catch {
                config.onEvent?(.error(error))
            }
            completion?()
        }
    }

    /// Removes every memory entry of the key's URL (all target sizes) and, if `fromDisk`, its bytes
    /// and its early image.
    public func removeImage(forKey key: ImageCacheKey, fromDisk: Bool = true, completion: (@Sendable () -> Void)? = nil) {
        memory.removeImages(urlKey: key.urlKey)
        guard fromDisk, let disk else {
            completion?()
            return
        }
        ioQueue.async(group: ioWork) {
            disk.remove(forKey: key.diskKey)
            disk.remove(forKey: EarlyImageEntry.diskKey(for: key))
            completion?()
        }
    }

    /// Empties the memory level.
    public func clearMemory() { memory.removeAll() }

    /// Empties the disk level (on the I/O queue).
    public func clearDisk(completion: (@Sendable () -> Void)? = nil) {
        guard let disk else {
            completion?()
            return
        }
        ioQueue.async(group: ioWork) {
            disk.removeAll()
            completion?()
        }
    }

    /// Bytes on disk (running total).
    public var diskSize: Int { disk?.totalSize ?? 0 }
    /// Entries on disk.
    public var diskCount: Int { disk?.count ?? 0 }

    /// After a 304: refreshes the entry's last access and, if given, its validators and freshness — on
    /// disk (I/O queue; the early image's entry when the URL has no original) and in every memory
    /// entry of the URL (now).
    public func touch(forKey key: ImageCacheKey, validators: HTTPValidators? = nil, freshness: HTTPFreshness? = nil,
                      completion: (@Sendable (Bool) -> Void)? = nil) {
        if let validators, let freshness {
            memory.updateMetadata(ResponseMetadata(validators: validators, freshness: freshness), urlKey: key.urlKey)
        }
        guard let disk else {
            completion?(false)
            return
        }
        ioQueue.async(group: ioWork) {
            // Not `completion?(disk.touch(…))`: optional chaining would skip the touch without a completion.
            let touched = disk.touch(forKey: key.diskKey, validators: validators, freshness: freshness)
                || disk.touch(forKey: EarlyImageEntry.diskKey(for: key), validators: validators, freshness: freshness)
            completion?(touched)
        }
    }

    /// Removes expired entries and dead writers' temp files (in the background); passes the number of
    /// expired entries removed.
    public func cleanExpired(completion: (@Sendable (Int) -> Void)? = nil) {
        guard let disk else {
            completion?(0)
            return
        }
        ioQueue.async(group: ioWork) {
            let removed = disk.removeExpired()  // (evaluated even without a completion)
            completion?(removed)
        }
    }

    /// Blocks until queued disk work (stores, trims, sweeps) is done. Not for the UI thread.
    public func waitUntilIdle() {
        ioWork.wait()
        disk?.waitUntilIdle()
    }
}
