import Foundation
import Testing
import TestSupport
@testable import WebImage
#if canImport(Glibc)
import Glibc
#endif

@Suite struct DiskCacheTests {
    @Test func roundTripsBytesValidatorsAndMetadata() throws {
        let clock = TestClock()
        let (disk, dir) = try makeDisk(clock: clock)
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + payload(1, count: 5000)
        let validators = HTTPValidators(etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
        try disk.store(jpeg, forKey: "https://x/a", validators: validators, contentType: "image/jpeg")
        let name = DiskCache.fileName(forKey: "https://x/a", extension: "jpg")
        #expect(POSIXFile.names(in: dir.path) == [name])
        #expect(name.count == 64 + 4)
        clock.advance(60)
        let entry = try #require(disk.entry(forKey: "https://x/a"))
        #expect(entry.data == jpeg)
        #expect(entry.validators == validators)
        #expect(entry.contentType == "image/jpeg")
        #expect(entry.storedAt == clock().addingTimeInterval(-60))
        #expect(entry.format == .jpeg)
        #expect(disk.entry(forKey: "https://x/other") == nil)
        #expect(disk.count == 1)
        #expect(disk.totalSize == directorySize(dir))
    }

    @Test func directoryIsCreatedAndTightenedTo0700() throws {
        let base = try Fixtures.temporaryDirectory("sdgallery-mode")
        let dir = base.appendingPathComponent("deep/er/sdgallery")
        _ = try DiskCache(config: DiskCacheConfig(directory: dir))
        #expect(try #require(POSIXFile.status(path: dir.path)).mode & 0o777 == 0o700)
        let loose = base.appendingPathComponent("loose")
        #expect(mkdir(loose.path, 0o755) == 0)
        _ = try DiskCache(config: DiskCacheConfig(directory: loose))
        #expect(try #require(POSIXFile.status(path: loose.path)).mode & 0o777 == 0o700)
        let file = base.appendingPathComponent("file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
        #expect(throws: CacheError.self) { try DiskCache(config: DiskCacheConfig(directory: file)) }
    }

    @Test func replacingWithAnotherFormatLeavesOneFile() throws {
        let (disk, dir) = try makeDisk()
        try disk.store(Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), forKey: "k")
        try disk.store(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9]), forKey: "k")
        #expect(POSIXFile.names(in: dir.path) == [DiskCache.fileName(forKey: "k", extension: "png")])
        #expect(disk.entry(forKey: "k")?.format == .png)
        #expect(disk.count == 1 && disk.totalSize == directorySize(dir))
        disk.remove(forKey: "k")
        #expect(disk.entry(forKey: "k") == nil)
        #expect(disk.count == 0 && disk.totalSize == 0)
    }

    @Test func touchRefreshesAccessAndRewritesValidators() throws {
        let clock = TestClock()
        let (disk, _) = try makeDisk(clock: clock, maxAge: 100)
        try disk.store(payload(3, count: 100), forKey: "k", validators: HTTPValidators(etag: "\"1\""))
        clock.advance(90)
        #expect(disk.touch(forKey: "k"))
        clock.advance(90)  // 180 s after the store, 90 after the touch: still fresh
        #expect(disk.touch(forKey: "k", validators: HTTPValidators(etag: "\"2\"", lastModified: "then")))
        let entry = try #require(disk.entry(forKey: "k"))
        #expect(entry.validators == HTTPValidators(etag: "\"2\"", lastModified: "then"))
        #expect(entry.data == payload(3, count: 100))
        #expect(!disk.touch(forKey: "missing"))
    }

    /// A 304 that changes nothing a load decides on (`no-cache` again) does not rewrite the file, so its
    /// identity (and so its decoded thumbnails) survives; one that brings a lifetime does rewrite it.
    @Test func touchWithStillNeverFreshMetadataKeepsTheFile() throws {
        let clock = TestClock()
        let (disk, _) = try makeDisk(clock: clock)
        let etag = HTTPValidators(etag: "\"1\"")
        try disk.store(payload(4, count: 100), forKey: "n", validators: etag, responseHeaders: ["cache-control": "no-cache"])
        let identity = try #require(disk.fileIdentity(forKey: "n"))
        clock.advance(10)
        #expect(disk.touch(forKey: "n", validators: etag, freshness: HTTPFreshness(headers: ["cache-control": "no-cache"], receivedAt: clock())))
        #expect(disk.fileIdentity(forKey: "n") == identity)
        let fresh = HTTPFreshness(headers: ["cache-control": "max-age=60"], receivedAt: clock())
        #expect(disk.touch(forKey: "n", validators: etag, freshness: fresh))
        #expect(disk.entry(forKey: "n")?.freshness == fresh)
    }

    /// The metadata-only read (thumbnail hits) gives what the full read gives, without the body.
    @Test func metadataReadsValidatorsAndFreshnessOnly() throws {
        let clock = TestClock()
        let (disk, _) = try makeDisk(clock: clock)
        let etag = HTTPValidators(etag: "\"m\"")
        try disk.store(payload(5, count: 300), forKey: "m", validators: etag, responseHeaders: ["cache-control": "max-age=30"])
        let full = try #require(disk.entry(forKey: "m"))
        #expect(disk.metadata(forKey: "m") == ResponseMetadata(validators: etag, freshness: full.freshness))
        #expect(disk.metadata(forKey: "missing") == nil)
    }

    /// Truncated, extended and garbled entries are misses, removed, and reported exactly once.
    @Test(arguments: ["truncate", "extend", "flip", "header"])
    func corruptEntryIsAMissRemovedAndReportedOnce(damage: String) throws {
        let events = EventLog()
        let (disk, dir) = try makeDisk(events: events)
        try disk.store(payload(5, count: 4000), forKey: "k", validators: HTTPValidators(etag: "e"))
        let file = dir.appendingPathComponent(try #require(POSIXFile.names(in: dir.path).first)).path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        switch damage {
        case "truncate": bytes.removeLast(1000)
        case "extend": bytes += [0, 0, 0]
        case "flip": bytes[3000] ^= 0x01
        default: bytes[0] = UInt8(ascii: "X")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(disk.entry(forKey: "k") == nil)
        #expect(disk.entry(forKey: "k") == nil)
        #expect(POSIXFile.names(in: dir.path).isEmpty)
        #expect(events.corruptCount == 1)
        #expect(disk.totalSize == 0)
    }

    @Test func concurrentReadersOfACorruptEntryReportItOnce() throws {
        let events = EventLog()
        let (disk, dir) = try makeDisk(events: events)
        for round in 0..<20 {
            try disk.store(payload(round, count: 20_000), forKey: "k")
            let file = dir.appendingPathComponent(try #require(POSIXFile.names(in: dir.path).first))
            try Data(payload(round, count: 100)).write(to: file)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = disk.entry(forKey: "k") }
        }
        #expect(events.corruptCount == 20)
    }
}
