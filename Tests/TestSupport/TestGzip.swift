import Foundation

/// Writes gzip members (RFC 1952) without zlib, so tests can serve `Content-Encoding: gzip` bodies:
/// `stored` wraps bytes in uncompressed deflate blocks; `zeros` is a compression bomb (runs of 258
/// zeros in fixed-Huffman deflate, about 1:160).
public enum TestGzip {
    /// `data` as a gzip member with stored (uncompressed) deflate blocks.
    public static func stored(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var deflate: [UInt8] = []
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            deflate.append(offset + count >= bytes.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            deflate += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            deflate += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        return member(deflate, crc: crc32(bytes), size: bytes.count)
    }

    /// A gzip member that inflates to `count` zero bytes.
    public static func zeros(count: Int) -> Data {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman
        let literalZero = 0b0011_0000  // literals 0–143: 8-bit codes from 00110000
        var left = count
        if left > 0 {
            bits.writeCode(literalZero, length: 8)
            left -= 1
        }
        while left >= 258 {
            bits.writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: 1 byte back
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(literalZero, length: 8) }
        bits.writeCode(0, length: 7)  // end of block (256)
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        }
        return member(bits.padded, crc: ~crc, size: count)
    }

    private static func member(_ deflate: [UInt8], crc: UInt32, size: Int) -> Data {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]  // magic, deflate, no flags, no mtime, unknown OS
        out += deflate
        out += le32(crc) + le32(UInt32(truncatingIfNeeded: size))
        return Data(out)
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return ~crc
    }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    /// Deflate's bit order: values LSB first; Huffman codes MSB first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        mutating func write(_ value: Int, count: Int) {
            for i in 0..<count { push((value >> i) & 1) }
        }

        mutating func writeCode(_ code: Int, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { push((code >> i) & 1) }
        }

        private mutating func push(_ bit: Int) {
            current |= UInt32(bit) << UInt32(filled)
            filled += 1
            if filled == 8 { flush() }
        }

        private mutating func flush() {
            bytes.append(UInt8(current & 0xFF))
            current = 0
            filled = 0
        }

        /// The bytes, with the last partial byte padded with zeros.
        var padded: [UInt8] { filled > 0 ? bytes + [UInt8(current & 0xFF)] : bytes }
    }
}
