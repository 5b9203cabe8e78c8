import Foundation

/// Animated GIFs of any size and length made without a library, for tests and benchmarks of long
/// animations: a 128-colour global palette, the image data stored with 8-bit LZW codes and a clear
/// code every 100 (so the codes never widen: the bytes are the indices, uncompressed).
public enum TestGIF {
    /// The RGB of palette `index` (0..<128).
    public static func color(_ index: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        (UInt8(index * 2 & 0xFF), UInt8(255 - index * 2 & 0xFF), UInt8(index * 37 & 0xFF))
    }

    /// A `width`×`height` animation of `frames` frames, looping for ever: frame 0 fills the canvas
    /// with colour 0; frame i > 0 draws a `patch`×`patch` square of colour `i % 127 + 1` at a place
    /// that moves with i (disposal none: the squares stay). Frame i lasts `(2 + i % 5)` hundredths.
    public static func animation(width: Int, height: Int, frames: Int, patch: Int = 8) -> Data {
        var bytes: [UInt8] = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF6, 0, 0]  // global table, 2^7 colours
        for i in 0..<128 { let c = color(i); bytes += [c.r, c.g, c.b] }
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let side = min(patch, width, height)
        for i in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0x04] + le16(2 + i % 5) + [0, 0]  // graphics control: disposal none, delay
            if i == 0 {
                bytes += descriptor(x: 0, y: 0, width: width, height: height)
                bytes += imageData(Array(repeating: 0, count: width * height))
            } else {
                let x = (i * 13) % max(1, width - side + 1), y = (i * 7) % max(1, height - side + 1)
                bytes += descriptor(x: x, y: y, width: side, height: side)
                bytes += imageData(Array(repeating: UInt8(i % 127 + 1), count: side * side))
            }
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

    private static func descriptor(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        [0x2C] + le16(x) + le16(y) + le16(width) + le16(height) + [0]
    }

    /// LZW with a minimum code size of 7: clear (128), up to 100 literal indices, …, end (129), in
    /// sub-blocks of at most 255 bytes.
    private static func imageData(_ indices: [UInt8]) -> [UInt8] {
        var codes: [UInt8] = []
        codes.reserveCapacity(indices.count + indices.count / 100 + 2)
        for (n, index) in indices.enumerated() {
            if n % 100 == 0 { codes.append(128) }
            codes.append(index)
        }
        codes.append(129)
        var out: [UInt8] = [7]
        var offset = 0
        while offset < codes.count {
            let n = min(255, codes.count - offset)
            out.append(UInt8(n))
            out += codes[offset..<offset + n]
            offset += n
        }
        out.append(0)
        return out
    }
}
