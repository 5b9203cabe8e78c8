import Foundation

/// Writes small, valid PNG files (8-bit RGBA, uncompressed "stored" deflate blocks) so tests can
/// serve distinguishable images without committing one file per case. The real decoders read them.
public enum TestPNG {
    /// A `width`×`height` PNG filled with one colour.
    public static func solid(width: Int, height: Int, rgba: (UInt8, UInt8, UInt8, UInt8)) -> Data {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) { pixels += [rgba.0, rgba.1, rgba.2, rgba.3] }
        return make(width: width, height: height, rgba: pixels)
    }

    /// A PNG of the given RGBA pixels (row-major, `width * height * 4` bytes).
    public static func make(width: Int, height: Int, rgba pixels: [UInt8]) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 4 + 1))
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(y * width * 4)..<((y + 1) * width * 4)]
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header += be32(UInt32(width)) + be32(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8-bit, RGBA, deflate, no filter method, no interlace
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            let last: UInt8 = offset + count >= bytes.count ? 1 : 0
            out.append(last)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32((b << 16) | a)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        return Data(be32(UInt32(body.count)) + typed + be32(crc32(typed)))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
