import Foundation
import ImageCodecs

extension ImageCache {
    /// The early image of `key`'s URL from disk, at `key.targetSize`, with its original's response
    /// metadata; nil without a target size, without an entry, or when the target needs more than it
    /// holds. Only asked when the URL has no original on disk. A malformed payload is removed and
    /// reported as a corrupt entry (a torn or garbled file is caught by the entry's CRC before).
    /// Runs on the I/O queue.
    func earlyImage(forKey key: ImageCacheKey, disk: DiskCache) -> (image: Image, metadata: ResponseMetadata)? {
        guard let target = key.targetSize else { return nil }
        let earlyKey = EarlyImageEntry.diskKey(for: key)
        guard let entry = disk.entry(forKey: earlyKey) else { return nil }
        guard let stored = EarlyImageEntry.decode(entry.data) else {
            disk.remove(forKey: earlyKey)
            config.onEvent?(.error(.corruptEntry(file: DiskCache.fileName(forKey: earlyKey, extension: "bin"), reason: "not an early image")))
            return nil
        }
        guard let image = EarlyImageEntry.image(stored, for: target) else { return nil }
        return (image, ResponseMetadata(validators: entry.validators, freshness: entry.freshness))
    }

    /// Keeps `image`, an early image of `key`'s URL, on disk with its original's response
    /// (`validators`, `responseHeaders` for the freshness), replacing the URL's previous early image —
    /// unless the original is on disk already, which the early image would only sit behind. Runs on
    /// the I/O queue.
    func storeEarly(_ image: Image, forKey key: ImageCacheKey, disk: DiskCache, validators: HTTPValidators, contentType: String?,
                    responseHeaders: [String: String]?) throws(CacheError) {
        guard let payload = EarlyImageEntry.encode(image), !disk.contains(key: key.diskKey) else { return }
        try disk.store(payload, forKey: EarlyImageEntry.diskKey(for: key), validators: validators, contentType: contentType,
                       responseHeaders: responseHeaders)
    }
}
