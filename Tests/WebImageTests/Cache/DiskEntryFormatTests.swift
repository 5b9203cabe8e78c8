import Foundation
import Testing
@testable import WebImage

@Suite struct DiskEntryFormatTests {
    @Test func metadataRoundTripsIncludingAbsentFieldsAndUnicode() throws {
        let meta = DiskEntryFormat.Metadata(
            key: "https://例え.jp/画像.png?q=ü", validators: HTTPValidators(etag: nil, lastModified: "Tue, 01 Jan 2030 00:00:00 GMT"),
            contentType: nil, storedAt: Date(timeIntervalSince1970: 1_700_000_000.25))
        let data = Data([1, 2, 3])
        let prefix = DiskEntryFormat.prefix(meta, data: data)
        let header = Array(prefix[0..<DiskEntryFormat.headerSize])
        let parsed = try DiskEntryFormat.parseHeader(header, fileSize: prefix.count + data.count)
        #expect(parsed.dataLength == 3)
        #expect(try DiskEntryFormat.parseMetadata(Array(prefix[DiskEntryFormat.headerSize...])) == meta)
    }

    @Test func rejectsWrongSizesAndAbsurdLengths() {
        let meta = DiskEntryFormat.Metadata(key: "k", validators: HTTPValidators(), contentType: "image/png", storedAt: Date())
        let prefix = DiskEntryFormat.prefix(meta, data: Data(count: 10))
        let header = Array(prefix[0..<DiskEntryFormat.headerSize])
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseHeader(header, fileSize: prefix.count + 9) }
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseHeader(header, fileSize: prefix.count + 11) }
        var huge = header
        for i in 16..<24 { huge[i] = 0xFF }
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseHeader(huge, fileSize: Int.max) }
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseMetadata([0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseMetadata([9, 0, 0, 0, 65]) }
    }
}

@Suite struct DiskEntryFormatFreshnessTests {
    let storedAt = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func freshnessRoundTripsInTheCurrentVersion() throws {
        let freshness = HTTPFreshness(headers: ["cache-control": "max-age=60, must-revalidate", "etag": "\"e\""], receivedAt: storedAt)
        let meta = DiskEntryFormat.Metadata(key: "k", validators: HTTPValidators(etag: "\"e\""), contentType: "image/png",
                                            storedAt: storedAt, freshness: freshness)
        let prefix = DiskEntryFormat.prefix(meta, data: Data([7]))
        let parsed = try DiskEntryFormat.parseHeader(Array(prefix[0..<DiskEntryFormat.headerSize]), fileSize: prefix.count + 1)
        #expect(parsed.version == 2)
        let back = try DiskEntryFormat.parseMetadata(Array(prefix[DiskEntryFormat.headerSize...]), version: parsed.version)
        #expect(back == meta)
        #expect(back.freshness?.isFresh(at: storedAt + 30) == true)
    }

    /// A version 1 entry (written by the previous format, built here byte by byte) is still read,
    /// with no freshness: stale, so it is revalidated.
    @Test func versionOneEntryIsReadAndStale() throws {
        func field(_ s: String?) -> [UInt8] {
            guard let s else { return [0xFF, 0xFF, 0xFF, 0xFF] }
            let u = Array(s.utf8)
            return withUnsafeBytes(of: UInt32(u.count).littleEndian, Array.init) + u
        }
        let meta = field("k") + field("\"e\"") + field(nil) + field("image/png")
            + withUnsafeBytes(of: storedAt.timeIntervalSince1970.bitPattern.littleEndian, Array.init)
        var header = Array("SDGC".utf8) + [1, 0, 0, 0]
        header += withUnsafeBytes(of: UInt32(meta.count).littleEndian, Array.init)
        header += [0, 0, 0, 0]  // CRC, checked by the reader of files, not by parseHeader
        header += withUnsafeBytes(of: UInt64(3).littleEndian, Array.init)
        let parsed = try DiskEntryFormat.parseHeader(header, fileSize: header.count + meta.count + 3)
        #expect(parsed.version == 1)
        let back = try DiskEntryFormat.parseMetadata(meta, version: parsed.version)
        #expect(back.key == "k" && back.validators.etag == "\"e\"" && back.storedAt == storedAt)
        #expect(back.freshness == nil)
        let entry = DiskCacheEntry(key: back.key, data: Data([1, 2, 3]), validators: back.validators, contentType: back.contentType,
                                   storedAt: back.storedAt, lastAccess: storedAt, freshness: back.freshness)
        #expect(!entry.isFresh(at: storedAt))
        var future = header
        future[4] = 3
        #expect(throws: DiskEntryFormat.Invalid.self) { try DiskEntryFormat.parseHeader(future, fileSize: header.count + meta.count + 3) }
    }
}

@Suite struct DiskCacheFreshnessTests {
    @Test func storedResponseHeadersGiveTheEntryItsFreshnessByTheCacheClock() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("freshness-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let disk = try DiskCache(config: DiskCacheConfig(directory: dir, clock: { t0 }))
        try disk.store(Data([1, 2, 3]), forKey: "fresh", responseHeaders: ["cache-control": "max-age=60"])
        try disk.store(Data([1, 2, 3]), forKey: "unknown")
        let fresh = try #require(disk.entry(forKey: "fresh"))
        #expect(fresh.freshness?.receivedAt == t0)
        #expect(fresh.isFresh(at: t0 + 59) && !fresh.isFresh(at: t0 + 60))
        #expect(try #require(disk.entry(forKey: "unknown")).isFresh(at: t0) == false)
        #expect(HTTPFreshness.forbidsStorage(["cache-control": "private, No-Store"]))
        #expect(!HTTPFreshness.forbidsStorage(["cache-control": "no-cache"]))
    }
}
