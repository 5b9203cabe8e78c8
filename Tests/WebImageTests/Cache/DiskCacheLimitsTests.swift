import Foundation
import Locking
import Testing
@testable import WebImage

@Suite struct DiskCacheLimitsTests {
    @Test func expiresByLastAccessWithAnInjectedClock() throws {
        let clock = TestClock()
        let (disk, dir) = try makeDisk(clock: clock, maxAge: 1000)
        try disk.store(payload(1, count: 100), forKey: "old")
        try disk.store(payload(2, count: 100), forKey: "read")
        clock.advance(600)
        #expect(disk.entry(forKey: "read") != nil)  // access at 600 keeps it alive
        try disk.store(payload(3, count: 100), forKey: "new")
        clock.advance(600)                          // old: 1200 s idle; read: 600; new: 600
        #expect(disk.contains(key: "read") && !disk.contains(key: "old"))
        #expect(disk.removeExpired() == 1)
        #expect(disk.count == 2 && disk.totalSize == directorySize(dir))
        clock.advance(2000)
        #expect(disk.entry(forKey: "new") == nil)   // expired on read: removed, not served
        #expect(disk.count == 1)
    }

    @Test func startupSweepRemovesExpiredEntries() throws {
        let clock = TestClock()
        let (disk, dir) = try makeDisk(clock: clock, maxAge: 1000)
        try disk.store(payload(1, count: 100), forKey: "a")
        clock.advance(5000)
        let events = EventLog()
        let (second, _) = try makeDisk(dir, clock: clock, maxAge: 1000, events: events)
        #expect(POSIXFile.names(in: dir.path).isEmpty)
        #expect(second.count == 0)
        #expect(events.all.contains(.swept(expiredCount: 1, tempFileCount: 0)))
        _ = disk
    }

    @Test func aStoreAfterTheSweepIntervalSweepsExpiredEntriesAgain() throws {
        let clock = TestClock()
        let events = EventLog()
        let config = DiskCacheConfig(directory: try makeDisk().1, maxAge: 1000, sweepInterval: 100, clock: clock.closure, onEvent: events.sink)
        let disk = try DiskCache(config: config)
        disk.waitUntilIdle()
        try disk.store(payload(1, count: 100), forKey: "a")
        clock.advance(2000)                    // "a" expires; nobody reads it
        try disk.store(payload(2, count: 100), forKey: "b")
        disk.waitUntilIdle()
        #expect(POSIXFile.names(in: config.directory.path).count == 1)
        #expect(events.all.contains(.swept(expiredCount: 1, tempFileCount: 0)))
        #expect(disk.count == 1 && disk.totalSize == directorySize(config.directory))
    }

    @Test func storeCrossingTheLimitTrimsLeastRecentlyUsedTo70PercentOffTheCallersThread() throws {
        let clock = TestClock()
        let events = EventLog()
        let trimThread = Locked<pthread_t?>(nil)
        let config = DiskCacheConfig(
            directory: try makeDisk().1, maxSize: 100_000, clock: clock.closure,
            onEvent: { event in
                if case .trimmed = event { trimThread.withLock { $0 = pthread_self() } }
                events.sink(event)
            })
        let disk = try DiskCache(config: config)
        disk.waitUntilIdle()
        // Ten entries of ~9 KB, each accessed one second after the previous one.
        for i in 0..<10 {
            try disk.store(payload(i, count: 9000), forKey: "k\(i)")
            clock.advance(1)
        }
        _ = disk.entry(forKey: "k0")  // k0 is now the most recently used
        clock.advance(1)
        #expect(disk.totalSize < 100_000)
        try disk.store(payload(10, count: 20_000), forKey: "big")  // crosses 100 000
        disk.waitUntilIdle()
        #expect(disk.totalSize <= 70_000)
        #expect(disk.totalSize == directorySize(config.directory))
        let survivors = (0..<10).filter { disk.contains(key: "k\($0)") }
        #expect(survivors == [0, 6, 7, 8, 9])  // k1…k5 were the least recently used
        #expect(disk.contains(key: "big"))
        let thread = try #require(trimThread.withLock { $0 })
        #expect(pthread_equal(thread, pthread_self()) == 0)
        #expect(events.all.contains { if case .trimmed = $0 { return true } else { return false } })
    }

    @Test func runningSizeEqualsDirectorySizeAfter1000RandomStoresAndRemoves() throws {
        let clock = TestClock()
        let (disk, dir) = try makeDisk(clock: clock, maxSize: 150_000)
        var rng = SystemRandomNumberGenerator()
        let prefixes: [[UInt8]] = [[0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8), []]
        for i in 0..<1000 {
            let key = "k\(Int.random(in: 0..<80, using: &rng))"
            if Int.random(in: 0..<4, using: &rng) == 0 {
                disk.remove(forKey: key)
            } else {
                let head = prefixes[Int.random(in: 0..<prefixes.count, using: &rng)]
                try disk.store(Data(head) + payload(i, count: Int.random(in: 0..<6000, using: &rng)), forKey: key)
            }
            clock.advance(1)
        }
        disk.waitUntilIdle()
        #expect(disk.totalSize == directorySize(dir))
        #expect(disk.count == POSIXFile.names(in: dir.path).count)
        #expect(disk.totalSize <= 150_000)
    }
}
