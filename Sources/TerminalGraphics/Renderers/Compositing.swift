import ImageCodecs

/// Flattening straight-alpha RGBA onto the terminal's background for outputs without alpha
/// (half blocks, ASCII, opaque sixel).
enum Compositing {
    /// `image` scaled to `size` and blended over `background`: packed RGB888, `width * height * 3` bytes.
    static func rgb(_ image: Image, size: PixelSize, background: RGBColor) -> [UInt8] {
        let rgba = image.pixels(scaledTo: size)
        let count = size.width * size.height
        var out = [UInt8](repeating: 0, count: count * 3)
        let bg = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        rgba.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<count {
                    let a = UInt32(p[i * 4 + 3]), na = 255 - a
                    o[i * 3] = UInt8((UInt32(p[i * 4]) * a + bg.0 * na + 127) / 255)
                    o[i * 3 + 1] = UInt8((UInt32(p[i * 4 + 1]) * a + bg.1 * na + 127) / 255)
                    o[i * 3 + 2] = UInt8((UInt32(p[i * 4 + 2]) * a + bg.2 * na + 127) / 255)
                }
            }
        }
        return out
    }
}
