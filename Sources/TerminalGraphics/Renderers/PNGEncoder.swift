import ImageCodecs
import Zlib

/// A minimal PNG writer for terminal protocols that take PNG (iTerm2 inline images): 8-bit RGB or
/// RGBA, filter 0 on every row, one zlib-compressed IDAT.
enum PNGEncoder {
    /// The PNG file for `size` pixels of RGBA8 (`rgba.count == width × height × 4`); RGB when every
    /// pixel is opaque. Nil when the size and buffer disagree or compression fails.
    static func encode(rgba: [UInt8], size: PixelSize) -> [UInt8]? {
        let (width, height) = (size.width, size.height)
        guard width > 0, height > 0, rgba.count == width * height * 4 else { return nil }
        let opaque = stride(from: 3, to: rgba.count, by: 4).allSatisfy { rgba[$0] == 255 }
        let channels = opaque ? 3 : 4
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * channels + 1))
        for y in 0..<height {
            raw.append(0)  // filter: none
            let row = rgba[(y * width * 4)..<((y + 1) * width * 4)]
            if opaque {
                for (i, byte) in row.enumerated() where i % 4 != 3 { raw.append(byte) }
            } else {
                raw += row
            }
        }
        guard let compressed = Zlib.deflate(raw, level: 6) else { return nil }
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // depth 8, RGB or RGBA, deflate, filter 0, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(Zlib.crc32(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
