/// The EXIF orientation tag (0x0112) values 1–8: how the stored pixels must be transformed to
/// display upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left–right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top–bottom.
    case downMirrored = 4
    /// 5: transposed (mirror + rotate 270° clockwise).
    case leftMirrored = 5
    /// 6: needs a 90° clockwise rotation.
    case right = 6
    /// 7: transversed (mirror + rotate 90° clockwise).
    case rightMirrored = 7
    /// 8: needs a 90° counter-clockwise rotation.
    case left = 8

    /// Whether width and height trade places when the orientation is applied.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The display size of a stored size.
    func oriented(_ size: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }

    /// Reads the orientation from an APP1 payload ("Exif\0\0" then a TIFF header and IFD0);
    /// `.up` when absent, malformed or out of range.
    static func parse(exif payload: [UInt8]) -> ExifOrientation {
        guard let tiff = ExifTIFF(exif: payload) else { return .up }
        let t = ExifTIFF.start, u16 = tiff.u16
        guard let ifd = tiff.firstIFD, let count = u16(t + ifd) else { return .up }
        for entry in 0..<min(count, 512) {
            let e = t + ifd + 2 + entry * 12
            guard let tag = u16(e) else { return .up }
            if tag == 0x0112, u16(e + 2) == 3, let value = u16(e + 8) {
                return ExifOrientation(rawValue: value) ?? .up
            }
        }
        return .up
    }

    /// The bitmap transformed so it displays upright.
    func apply(to source: Bitmap) -> Bitmap {
        let w = source.width, h = source.height
        let size = oriented(source.size)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        source.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var d = 0
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let (sx, sy) = sourceCoordinate(x: x, y: y, width: w, height: h)
                        let s = (sy * w + sx) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                        d += 4
                    }
                }
            }
        }
        return Bitmap(width: size.width, height: size.height, pixels: out)
    }

    /// Where display pixel (x, y) comes from in the stored `width × height` bitmap.
    @inline(__always)
    private func sourceCoordinate(x: Int, y: Int, width w: Int, height h: Int) -> (Int, Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }
}
