import Foundation
import Locking
import Testing
@testable import WebImage
#if canImport(Glibc)
import Glibc
#endif

/// Two caches on one directory (as two processes would have), and writers that die mid-write.
@Suite struct DiskCacheSharingTests {
    @Test func twoCachesStoreAndEvictConcurrentlyWithoutErrorsOrCorruptReads() throws {
        let events = EventLog()
        let (first, dir) = try makeDisk(maxSize: 120_000, events: events)
        let (second, _) = try makeDisk(dir, maxSize: 120_000, events: events)
        let bad = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let disk = worker % 2 == 0 ? first : second
            for i in 0..<150 {
                let n = (i * 13 + worker * 7) % 60
                let key = "k\(n)"
                switch i % 5 {
                case 0: disk.remove(forKey: key)
                case 1, 2:
                    do { try disk.store(payload(n, count: 3000 + n * 50), forKey: key) } catch { bad.withLock { $0 += 1 } }
                default:
                    if let entry = disk.entry(forKey: key), entry.data != payload(n, count: 3000 + n * 50) { bad.withLock { $0 += 1 } }
                }
            }
        }
        first.waitUntilIdle()
        second.waitUntilIdle()
        #expect(bad.withLock { $0 } == 0)
        #expect(events.errors.isEmpty, "\(events.errors)")
        #expect(tempFiles(dir).isEmpty)
        _ = first.removeExpired()  // re-sync from the directory
        #expect(first.totalSize == directorySize(dir))
    }

    @Test func deadWritersTempFileIsNeverServedAndIsSwept() throws {
        let (disk, dir) = try makeDisk()
        try disk.store(payload(1, count: 1000), forKey: "k")
        // A killed writer's leftover: the same bytes as a real entry, cut short, under a temp name.
        let name = try #require(POSIXFile.names(in: dir.path).first)
        let full = try Data(contentsOf: dir.appendingPathComponent(name))
        try full.prefix(500).write(to: dir.appendingPathComponent(DiskCache.tempPrefix + "dead"))
        disk.remove(forKey: "k")
        #expect(disk.entry(forKey: "k") == nil)
        #expect(tempFiles(dir).count == 1)
        let events = EventLog()
        let (fresh, _) = try makeDisk(dir, events: events)  // the start-up sweep runs in the background
        #expect(tempFiles(dir).isEmpty)
        #expect(fresh.entry(forKey: "k") == nil)
        #expect(events.all.contains(.swept(expiredCount: 0, tempFileCount: 1)))
    }

    @Test func liveWritersLockedTempFileIsLeftAlone() throws {
        let (disk, dir) = try makeDisk()
        let temp = dir.path + "/" + DiskCache.tempPrefix + "live"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        #expect(flock(fd, LOCK_EX) == 0)
        #expect(write(fd, "partial", 7) == 7)
        #expect(disk.removeExpired() == 0)
        #expect(tempFiles(dir) == [DiskCache.tempPrefix + "live"])
        close(fd)  // the writer dies: its lock goes with it
        _ = disk.removeExpired()
        #expect(tempFiles(dir).isEmpty)
    }
}
