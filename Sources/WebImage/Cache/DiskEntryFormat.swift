import Foundation
import Zlib

/// The on-disk layout of one entry, in a single file so that one `rename` publishes bytes and
/// metadata together:
///
/// ```
/// 0  "SDGC"            magic
/// 4  UInt16 LE         version (2; version 1 files are still read)
/// 6  UInt16 LE         reserved (0)
/// 8  UInt32 LE         metadata length M (≤ 64 KiB)
/// 12 UInt32 LE         CRC-32 of metadata + data
/// 16 UInt64 LE         data length D
/// 24 metadata          key, etag, last-modified, content-type (UInt32 LE length or 0xFFFFFFFF for
///                      none, then UTF-8), stored-at (Float64 bits, UInt64 LE), and since version 2
///                      the freshness (JSON of `HTTPFreshness`, same length-prefixed form)
/// 24+M data
/// ```
/// The file size must be exactly 24 + M + D and the CRC must match, or the entry is corrupt.
/// The last access is the file's modification time, set explicitly by the cache on every hit.
enum DiskEntryFormat {
    static let headerSize = 24
    static let maxMetadataSize = 64 << 10
    static let magic: [UInt8] = Array("SDGC".utf8)
    static let version: UInt16 = 2
    /// The versions this reader understands. A version 1 entry has no freshness: it is stale.
    static let readableVersions: ClosedRange<UInt16> = 1...2

    /// The metadata stored with an entry.
    struct Metadata: Equatable {
        var key: String
        var validators: HTTPValidators
        var contentType: String?
        var storedAt: Date
        /// How long the bytes may be used without revalidation; nil (version 1 files, or not
        /// known) means stale.
        var freshness: HTTPFreshness? = nil
    }

    /// Why a file is not a valid entry.
    struct Invalid: Error { let reason: String }

    /// Header + metadata bytes for `data`.
    static func prefix(_ meta: Metadata, data: Data) -> [UInt8] {
        var m: [UInt8] = []
        for field in [meta.key, meta.validators.etag, meta.validators.lastModified, meta.contentType] {
            if let field {
                let utf8 = Array(field.utf8)
                append(&m, UInt32(utf8.count))
                m += utf8
            } else {
                append(&m, UInt32.max)
            }
        }
        append(&m, meta.storedAt.timeIntervalSince1970.bitPattern)
        if let freshness = meta.freshness, let json = try? JSONEncoder().encode(freshness) {
            append(&m, UInt32(json.count))
            m += json
        } else {
            append(&m, UInt32.max)
        }
        var crc = m.withUnsafeBytes { Zlib.crc32(0, $0) }
        crc = data.withUnsafeBytes { Zlib.crc32(crc, $0) }
        var out = magic
        append(&out, version)
        append(&out, UInt16(0))
        append(&out, UInt32(m.count))
        append(&out, crc)
        append(&out, UInt64(data.count))
        return out + m
    }

    /// Parsed fixed header: (metadata length, crc, data length).
    static func parseHeader(_ h: [UInt8], fileSize: Int) throws(Invalid) -> (metaLength: Int, crc: UInt32, dataLength: Int, version: UInt16) {
        guard h.count == headerSize, Array(h[0..<4]) == magic else { throw Invalid(reason: "bad magic") }
        guard readableVersions.contains(read16(h, 4)) else { throw Invalid(reason: "unknown version \(read16(h, 4))") }
        let metaLength = Int(read32(h, 8))
        let crc = read32(h, 12)
        let dataLength64 = read64(h, 16)
        guard metaLength <= maxMetadataSize, dataLength64 <= UInt64(Int.max / 2) else { throw Invalid(reason: "absurd lengths") }
        let dataLength = Int(dataLength64)
        guard headerSize + metaLength + dataLength == fileSize else {
            throw Invalid(reason: "size \(fileSize) ≠ \(headerSize + metaLength + dataLength) (truncated or extended)")
        }
        return (metaLength, crc, dataLength, read16(h, 4))
    }

    /// Parses the metadata block.
    static func parseMetadata(_ m: [UInt8], version: UInt16 = version) throws(Invalid) -> Metadata {
        var offset = 0
        func string() throws(Invalid) -> String? {
            guard offset + 4 <= m.count else { throw Invalid(reason: "metadata truncated") }
            let length = read32(m, offset)
            offset += 4
            if length == UInt32.max { return nil }
            guard offset + Int(length) <= m.count else { throw Invalid(reason: "metadata truncated") }
            defer { offset += Int(length) }
            return String(decoding: m[offset..<offset + Int(length)], as: UTF8.self)
        }
        guard let key = try string() else { throw Invalid(reason: "no key") }
        let etag = try string(), lastModified = try string(), contentType = try string()
        guard offset + 8 <= m.count else { throw Invalid(reason: "metadata truncated") }
        let storedAt = Date(timeIntervalSince1970: Double(bitPattern: read64(m, offset)))
        offset += 8
        var freshness: HTTPFreshness?
        if version >= 2, let json = try string() {
            // Unreadable freshness is not corruption (the CRC matched): the entry is just stale.
            freshness = try? JSONDecoder().decode(HTTPFreshness.self, from: Data(json.utf8))
        }
        guard offset == m.count else { throw Invalid(reason: "metadata length mismatch") }
        return Metadata(key: key, validators: HTTPValidators(etag: etag, lastModified: lastModified), contentType: contentType,
                        storedAt: storedAt, freshness: freshness)
    }

    private static func append<T: FixedWidthInteger>(_ out: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }
    private static func read16(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) | UInt16(b[o + 1]) << 8 }
    private static func read32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
    }
    private static func read64(_ b: [UInt8], _ o: Int) -> UInt64 { UInt64(read32(b, o)) | UInt64(read32(b, o + 4)) << 32 }
}
