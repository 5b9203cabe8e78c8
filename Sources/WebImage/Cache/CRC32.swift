/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial), slicing-by-8. The disk cache checks every entry
/// with it so that a torn, truncated or garbled file is never served.
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8))  // 0xCBF43926
/// ```
public enum CRC32 {
    /// Eight 256-entry tables for slicing-by-8, flattened: table `t` starts at `t * 256`.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        for n in 0..<256 {
            var c = table[n]
            for t in 1..<8 {
                c = table[Int(c & 0xff)] ^ (c >> 8)
                table[t * 256 + n] = c
            }
        }
        return table
    }()

    /// Continues a checksum over `bytes` (start with 0).
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            while i + 8 <= n {
                let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                let hi = UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 24
                c = t[1792 + Int(lo & 0xff)] ^ t[1536 + Int(lo >> 8 & 0xff)] ^ t[1280 + Int(lo >> 16 & 0xff)] ^ t[1024 + Int(lo >> 24)]
                    ^ t[768 + Int(hi & 0xff)] ^ t[512 + Int(hi >> 8 & 0xff)] ^ t[256 + Int(hi >> 16 & 0xff)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(bytes[i])) & 0xff)] ^ (c >> 8)
                i += 1
            }
        }
        return ~c
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(0, $0) }
    }
}
