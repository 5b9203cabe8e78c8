import Dispatch
import Foundation
import ImageCodecs
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// The disk level of `ImageCache` (SDWebImage's `SDDiskCache`): original bytes plus metadata, one file
/// per URL named by the SHA-256 of the key, with the sniffed format's extension.
///
/// - Writes are atomic: a locked temp file, `fsync`, `rename`. A reader checks length and CRC-32, so a
///   torn or garbled file is never served: it is removed and reported once.
/// - Limits hold continuously: entries older than `maxAge` (by last access, which the cache stamps as
///   the file's mtime) are never served; a store that crosses `maxSize` trims least recently used
///   entries down to 70% of it on a background queue; a sweep runs at start-up, off the caller.
/// - Several caches (processes) may share the directory: files may vanish under a reader, sizes are
///   re-synced from the directory on each sweep, and temp files of live writers (flocked) are left alone.
///
/// Methods are synchronous and thread-safe; call them off the UI thread (ImageCache uses its I/O queue).
///
/// ```swift
/// let disk = try DiskCache(config: DiskCacheConfig(directory: dir))
/// try disk.store(bytes, forKey: "https://example.com/a.jpg", validators: HTTPValidators(etag: "\"1\""))
/// let entry = disk.entry(forKey: "https://example.com/a.jpg")
/// ```
public final class DiskCache: Sendable {
    /// The configuration.
    public let config: DiskCacheConfig
    /// The directory path.
    public let path: String
    let index = Locked(DiskIndex())
    /// Runs sweeps and trims, one at a time, off every caller's thread.
    let maintenanceQueue = DispatchQueue(label: "sdgallery.diskcache.maintenance", qos: .utility)
    static let tempPrefix = ".tmp-"
    static let extensions: [String] = ImageFormat.allCases.compactMap(\.fileExtension) + ["bin"]

    /// Opens (creating it 0700 if needed) the cache directory and starts the background start-up sweep.
    public init(config: DiskCacheConfig) throws(CacheError) {
        self.config = config
        self.path = config.directory.standardizedFileURL.path
        try Self.prepareDirectory(path)
        scheduleMaintenance(trim: true)
    }

    /// Running total of entry sizes in bytes (exact once the start-up sweep is done; re-synced from the
    /// directory by each sweep and trim).
    public var totalSize: Int { index.withLock { $0.total } }
    /// Number of entries.
    public var count: Int { index.withLock { $0.sizes.count } }

    /// The file name for `key` with extension `ext`.
    public static func fileName(forKey key: String, extension ext: String) -> String {
        SHA256.hex(of: key.utf8) + "." + ext
    }

    /// The entry for `key`, stamping its last access; nil on a miss (absent, vanished, expired, or
    /// corrupt — a corrupt file is removed and reported through `onEvent`).
    public func entry(forKey key: String) -> DiskCacheEntry? {
        let now = config.clock()
        for name in candidateNames(forKey: key) {
            switch read(name: name, key: key, now: now) {
            case .absent: continue
            case .miss: return nil
            case .hit(let entry): return entry
            }
        }
        return nil
    }

    /// Whether an unexpired entry exists for `key` (does not check its contents).
    public func contains(key: String) -> Bool {
        let now = config.clock()
        return candidateNames(forKey: key).contains { name in
            guard let st = POSIXFile.status(path: path + "/" + name) else { return false }
            return now.timeIntervalSince(st.modified) <= config.maxAge
        }
    }

    /// Stores `data` for `key` atomically, replacing any previous entry. May schedule a background trim.
    /// `responseHeaders` (lowercased names) give the entry its freshness, stamped by this cache's clock.
    public func store(_ data: Data, forKey key: String, validators: HTTPValidators = HTTPValidators(), contentType: String? = nil,
                      responseHeaders: [String: String]? = nil) throws(CacheError) {
        let ext = ImageFormat.sniff(data).fileExtension ?? "bin"
        let name = Self.fileName(forKey: key, extension: ext)
        let now = config.clock()
        let freshness = responseHeaders.map { HTTPFreshness(headers: $0, receivedAt: now) }
        let meta = DiskEntryFormat.Metadata(key: key, validators: validators, contentType: contentType, storedAt: now, freshness: freshness)
        let size = try writeAtomically(name: name, prefix: DiskEntryFormat.prefix(meta, data: data), data: data, stamp: now)
        index.withLock { $0.record(name, size: size) }
        for other in Self.extensions where other != ext {
            let sibling = Self.fileName(forKey: key, extension: other)
            if unlink(path + "/" + sibling) == 0 || index.withLock({ $0.contains(sibling) }) {
                index.withLock { $0.record(sibling, size: nil) }
            }
        }
        afterStore(now: now)
    }

    /// Removes the entry for `key` (every extension).
    public func remove(forKey key: String) {
        for ext in Self.extensions {
            let name = Self.fileName(forKey: key, extension: ext)
            if unlink(path + "/" + name) == 0 || index.withLock({ $0.contains(name) }) {
                index.withLock { $0.record(name, size: nil) }
            }
        }
    }

    /// Refreshes the last access of `key` (after a 304) and, when given and different, its validators
    /// and freshness (rewritten atomically). Returns false if there is no such entry.
    @discardableResult
    public func touch(forKey key: String, validators: HTTPValidators? = nil, freshness: HTTPFreshness? = nil) -> Bool {
        let now = config.clock()
        for name in candidateNames(forKey: key) {
            guard validators != nil || freshness != nil else {
                if POSIXFile.setTimes(path: path + "/" + name, now) { return true }
                continue
            }
            guard case .hit(let entry) = read(name: name, key: key, now: now) else { continue }
            let newValidators = validators ?? entry.validators
            let newFreshness = freshness ?? entry.freshness
            if entry.validators == newValidators && (entry.freshness == newFreshness
                || (Self.neverFresh(entry.freshness) && Self.neverFresh(newFreshness))) {
                // Nothing a later load would decide differently (e.g. `no-cache` after `no-cache`): no
                // rewrite, so the file keeps its identity and its decoded thumbnails stay valid.
                return true
            }
            let meta = DiskEntryFormat.Metadata(key: key, validators: newValidators, contentType: entry.contentType, storedAt: entry.storedAt,
                                                 freshness: newFreshness)
            guard let size = try? writeAtomically(name: name, prefix: DiskEntryFormat.prefix(meta, data: entry.data), data: entry.data, stamp: now) else {
                return false
            }
            index.withLock { $0.record(name, size: size) }
            return true
        }
        return false
    }

    /// Whether freshness `f` can never make the entry fresh (unknown, `no-cache`/`no-store`, or no lifetime).
    static func neverFresh(_ f: HTTPFreshness?) -> Bool {
        guard let f else { return true }
        return f.noCache || f.noStore || f.freshnessLifetime <= 0
    }

    /// Candidate file names for `key`: known names first, then every other extension.
    func candidateNames(forKey key: String) -> [String] {
        let hash = SHA256.hex(of: key.utf8)
        let names = Self.extensions.map { hash + "." + $0 }
        let known = index.withLock { index in names.filter { index.contains($0) } }
        return known + names.filter { !known.contains($0) }
    }

    func report(_ event: CacheEvent) { config.onEvent?(event) }
}
