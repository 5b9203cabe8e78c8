import Dispatch
import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// Faults of the disk under the cache, made for real: a 1 MB tmpfs that fills up, a read-only mount,
/// the directory deleted while the cache runs, an entry file replaced by another entry's. Every image
/// stays available (from memory where the disk fails), the cache says what went wrong through its
/// events, nothing crashes, and no entry is ever served for the wrong key.
/// The mounts need root (CI runs as root); elsewhere those tests are skipped with a note.
@Suite(.serialized) struct DiskCacheFaultTests {
    static let canMount = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/mount")

    /// A tmpfs of `size` mounted on a new directory (read-only with `readOnly`), unmounted by `body`'s end.
    static func withTmpfs<T>(size: String = "1m", readOnly: Bool = false, _ body: (URL) throws -> T) throws -> T {
        let dir = try Fixtures.temporaryDirectory("sdgallery-tmpfs")
        let options = "size=\(size),mode=0700" + (readOnly ? ",ro" : "")
        let mounted = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir.path])
        guard mounted.status == 0 else { throw ChildProcess.SpawnError(description: "mount: \(mounted.err)") }
        defer { _ = try? ChildProcess.run("umount", ["-l", dir.path]) }
        return try body(dir)
    }

    static func makeCache(_ directory: URL, events: EventLog) -> ImageCache {
        var config = ImageCacheConfig()
        config.directory = directory
        config.decoder = TinyImage.decoder
        config.fsyncDiskWrites = false
        config.onEvent = events.sink
        return ImageCache(config: config)
    }

    static func store(_ cache: ImageCache, _ key: ImageCacheKey, image: Image, data: Data) {
        let done = DispatchSemaphore(value: 0)
        cache.store(image: image, data: data, forKey: key) { done.signal() }
        _ = done.wait(timeout: .now() + 10)
    }

    @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
    func aFullDiskKeepsEveryImageInMemoryAndReportsIt() async throws {
        try await Blocking.run {
            try Self.withTmpfs(size: "1m") { mount in
                let events = EventLog()
                let cache = Self.makeCache(mount.appendingPathComponent("cache"), events: events)
                #expect(cache.disk != nil)
                // 30 × 100 KB into 1 MB: most writes hit ENOSPC.
                let keys = (0..<30).map { ImageCacheKey(urlKey: "https://example.com/\($0).img") }
                for (i, key) in keys.enumerated() {
                    Self.store(cache, key, image: solidImage(8 + i, 8), data: payload(i, count: 100_000))
                }
                for (i, key) in keys.enumerated() {
                    #expect(cache.memory.image(forKey: key)?.width == 8 + i, "image \(i) lost")
                }
                let full = events.errors.filter { if case .io(_, _, let reason) = $0 { return reason.contains("No space") } else { return false } }
                #expect(!full.isEmpty, "no ENOSPC reported: \(events.errors)")
                // Failed writes leave no temp files; what did reach the disk is intact and is its own key's.
                let disk = try #require(cache.disk)
                disk.waitUntilIdle()
                #expect(tempFiles(mount.appendingPathComponent("cache")).isEmpty)
                var stored = 0
                for (i, key) in keys.enumerated() {
                    guard let entry = disk.entry(forKey: key.diskKey) else { continue }
                    stored += 1
                    #expect(entry.data == payload(i, count: 100_000), "entry \(i) served other bytes")
                }
                #expect(stored > 0 && stored < keys.count, "stored \(stored) of \(keys.count)")
            }
        }
    }

    @Test(.enabled(if: canMount, "needs root to mount a tmpfs"))
    func aReadOnlyDirectoryTurnsTheDiskLevelOffAndMemoryStillWorks() async throws {
        try await Blocking.run {
            try Self.withTmpfs(readOnly: true) { mount in
                let events = EventLog()
                // Root ignores permission bits, not a read-only mount.
                let cache = Self.makeCache(mount, events: events)
                #expect(cache.disk == nil)
                guard case .directoryUnavailable(_, let reason)? = cache.diskError else {
                    Issue.record("expected directoryUnavailable, got \(String(describing: cache.diskError))")
                    return
                }
                #expect(reason.contains("Read-only"), "\(reason)")
                let key = ImageCacheKey(urlKey: "https://example.com/ro.img")
                Self.store(cache, key, image: solidImage(5, 5), data: payload(1, count: 1000))
                #expect(cache.memory.image(forKey: key)?.width == 5)
            }
        }
    }

    /// A folder above the cache that another user could change (writable by others, not sticky) is
    /// refused as OpenSSH refuses one above a key file: it could swap the cache's folder mid-run.
    /// A sticky one (as /tmp) is fine.
    @Test func aCacheUnderAFolderOthersCanChangeIsRefused() async throws {
        try await Blocking.run {
            let base = try Fixtures.temporaryDirectory("sdgallery-parents")
            defer { try? FileManager.default.removeItem(at: base) }
            let open = base.appendingPathComponent("open")
            try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
            #expect(chmod(open.path, 0o777) == 0)
            let refused = Self.makeCache(open.appendingPathComponent("cache"), events: EventLog())
            #expect(refused.disk == nil)
            guard case .directoryUnavailable(_, let reason)? = refused.diskError else {
                Issue.record("expected directoryUnavailable, got \(String(describing: refused.diskError))")
                return
            }
            #expect(reason.contains("\(open.path) can be changed by another user"), "\(reason)")
            #expect(chmod(open.path, 0o1777) == 0)
            let sticky = Self.makeCache(open.appendingPathComponent("cache"), events: EventLog())
            #expect(sticky.disk != nil, "\(String(describing: sticky.diskError))")
        }
    }

    @Test func theDirectoryDeletedWhileRunningIsMadeAgain() async throws {
        try await Blocking.run {
            let events = EventLog()
            let dir = try Fixtures.temporaryDirectory("sdgallery-deleted").appendingPathComponent("cache")
            let cache = Self.makeCache(dir, events: events)
            let a = ImageCacheKey(urlKey: "https://example.com/a.img"), b = ImageCacheKey(urlKey: "https://example.com/b.img")
            Self.store(cache, a, image: solidImage(3, 3), data: payload(1, count: 5000))
            try FileManager.default.removeItem(at: dir)
            Self.store(cache, b, image: solidImage(4, 4), data: payload(2, count: 5000))
            let disk = try #require(cache.disk)
            #expect(disk.entry(forKey: a.diskKey) == nil)  // gone with the directory: a miss, no crash
            #expect(disk.entry(forKey: b.diskKey)?.data == payload(2, count: 5000))
            #expect(events.errors.isEmpty, "\(events.errors)")
        }
    }

    @Test func anEntryFileReplacedByAnotherEntrysFileIsNeverServedForTheWrongKey() async throws {
        try await Blocking.run {
            let events = EventLog()
            let (disk, dir) = try makeDisk(events: events)
            try disk.store(payload(1, count: 3000), forKey: "A")
            try disk.store(payload(2, count: 3000), forKey: "B")
            let nameA = DiskCache.fileName(forKey: "A", extension: "bin"), nameB = DiskCache.fileName(forKey: "B", extension: "bin")
            #expect(rename(dir.appendingPathComponent(nameB).path, dir.appendingPathComponent(nameA).path) == 0)
            #expect(disk.entry(forKey: "A") == nil, "A served B's bytes")
            #expect(events.corruptCount == 1)
        }
    }
}
