import CZlib

/// zlib, the one importer of it: CRC-32 for the disk cache's entry checks, zlib-wrapped deflate for
/// kitty's compressed payloads (`o=z`) and PNG writers, gzip for test servers.
///
/// ```swift
/// Zlib.crc32(Array("123456789".utf8))        // 0xCBF43926
/// let packed = Zlib.deflate(rgba)            // RFC 1950 stream
/// Zlib.inflate(packed, capacity: rgba.count) // rgba again
/// ```
public enum Zlib {
    /// The wrapper around a deflate stream.
    public enum Wrapper: Sendable {
        /// RFC 1950 (kitty `o=z`, PNG `IDAT`).
        case zlib
        /// RFC 1952 (HTTP `Content-Encoding: gzip`).
        case gzip
    }

    /// zlib's version ("1.2.13").
    public static var version: String { String(cString: sdg_zlib_version()) }

    /// Continues a CRC-32 over `bytes` (start with 0).
    public static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        sdg_zlib_crc32(crc, bytes.baseAddress, bytes.count)
    }

    /// The CRC-32 of `bytes`.
    public static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        if let crc = bytes.withContiguousStorageIfAvailable({ crc32(0, UnsafeRawBufferPointer($0)) }) { return crc }
        return Array(bytes).withUnsafeBytes { crc32(0, $0) }
    }

    /// `bytes` deflated at `level` (0…9, -1 for zlib's default) with the given wrapper; nil only when
    /// zlib fails (out of memory).
    public static func deflate(_ bytes: UnsafeRawBufferPointer, level: Int32 = -1, wrapper: Wrapper = .zlib) -> [UInt8]? {
        let gzip: Int32 = wrapper == .gzip ? 1 : 0
        let capacity = sdg_zlib_bound(bytes.count, gzip)
        var out = [UInt8](repeating: 0, count: capacity)
        let written = out.withUnsafeMutableBytes { sdg_zlib_deflate(bytes.baseAddress, bytes.count, level, gzip, $0.baseAddress, capacity) }
        guard written > 0 else { return nil }
        out.removeSubrange(written...)
        return out
    }

    /// `bytes` deflated (see `deflate(_:level:wrapper:)`).
    public static func deflate<Bytes: Sequence>(_ bytes: Bytes, level: Int32 = -1, wrapper: Wrapper = .zlib) -> [UInt8]? where Bytes.Element == UInt8 {
        if let out = bytes.withContiguousStorageIfAvailable({ deflate(UnsafeRawBufferPointer($0), level: level, wrapper: wrapper) }) { return out }
        return Array(bytes).withUnsafeBytes { deflate($0, level: level, wrapper: wrapper) }
    }

    /// A zlib or gzip stream inflated into at most `capacity` bytes; nil when the stream is bad or its
    /// content is larger than `capacity`.
    public static func inflate<Bytes: Sequence>(_ bytes: Bytes, capacity: Int) -> [UInt8]? where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var out = [UInt8](repeating: 0, count: max(capacity, 1))
        let written = input.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { sdg_zlib_inflate(source.baseAddress, source.count, $0.baseAddress, capacity) }
        }
        guard written >= 0 else { return nil }
        out.removeSubrange(written...)
        return out
    }
}
