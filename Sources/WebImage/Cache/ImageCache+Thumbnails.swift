import Foundation
import ImageCodecs

extension ImageCache {
    /// The decoded thumbnail of `key` from disk, if one exists and still matches its original;
    /// a stale one is removed. Runs on the I/O queue.
    func thumbnail(forKey key: ImageCacheKey, disk: DiskCache) -> Image? {
        guard config.storeDecodedThumbnails, let thumbKey = DecodedThumbnail.diskKey(for: key),
              let entry = disk.entry(forKey: thumbKey) else { return nil }
        guard let (image, identity) = DecodedThumbnail.decode(entry.data),
              identity == disk.fileIdentity(forKey: key.diskKey) else {
            disk.remove(forKey: thumbKey)
            return nil
        }
        return image
    }

    /// Keeps `image` (decoded at `key.targetSize` from an original of `originalBytes` bytes whose
    /// file had `identity`) as a disk thumbnail when that saves a decode later.
    func storeThumbnail(_ image: Image, forKey key: ImageCacheKey, originalBytes: Int, identity: String) {
        guard config.storeDecodedThumbnails, let disk, let thumbKey = DecodedThumbnail.diskKey(for: key),
              DecodedThumbnail.isWorthKeeping(image, originalBytes: originalBytes) else { return }
        let data = DecodedThumbnail.encode(image, sourceIdentity: identity)
        ioQueue.async(group: ioWork) { [config] in
            do throws(CacheError) {
                try disk.store(data, forKey: thumbKey)
            } catch {
                config.onEvent?(.error(error))
            }
        }
    }
}
