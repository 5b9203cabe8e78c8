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
