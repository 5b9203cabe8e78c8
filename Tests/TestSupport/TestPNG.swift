import Foundation
import Zlib

/// Writes small, valid PNG files (8-bit RGBA; zlib at level 0, "stored" deflate blocks, so a
/// body is as large as its pixels and throttled transfers take measurable time) so tests can
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
        png += chunk("IDAT", Zlib.deflate(raw, level: 0) ?? [])
        png += chunk("IEND", [])
        return png
    }

    /// An Adam7-interlaced PNG of the given RGBA pixels (stored deflate, so each pass costs its
    /// pixels' bytes: the first pass is 1/64 of the body).
    public static func adam7(width: Int, height: Int, rgba pixels: [UInt8]) -> Data {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw = [UInt8]()
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)  // filter: none
                for x in stride(from: x0, to: width, by: dx) { raw += pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 4)] }
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 1])  // interlace: Adam7
        png += chunk("IDAT", Zlib.deflate(raw, level: 0) ?? [])
        png += chunk("IEND", [])
        return png
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        return Data(be32(UInt32(body.count)) + typed + be32(Zlib.crc32(typed)))
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
