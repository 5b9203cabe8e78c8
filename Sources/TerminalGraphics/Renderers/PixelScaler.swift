import ImageCodecs

/// Area-averaging (box filter) scaler with alpha blending, private to this module so renderers do
/// not depend on unreleased ImageCodecs functions. Averaging happens on premultiplied values, so
/// transparent pixels do not bleed their colour.
enum PixelScaler {
    /// The largest size with `source`'s aspect ratio that fits in `box` (up- or down-scaled), ≥ 1×1.
    static func fit(_ source: PixelSize, in box: PixelSize) -> PixelSize {
        guard source.width > 0, source.height > 0, box.width > 0, box.height > 0 else {
            return PixelSize(width: 1, height: 1)
        }
        let scale = min(Double(box.width) / Double(source.width), Double(box.height) / Double(source.height))
        return PixelSize(
            width: min(box.width, max(1, Int((Double(source.width) * scale).rounded()))),
            height: min(box.height, max(1, Int((Double(source.height) * scale).rounded())))
        )
    }

    /// For each output index: the source indices it covers and their weights (summing to 1).
    static func weights(source: Int, target: Int) -> [[(index: Int, weight: Float)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { i in
            let start = Double(i) * scale
            let end = min(Double(source), Double(i + 1) * scale)
            var taps: [(index: Int, weight: Float)] = []
            var j = Int(start)
            while Double(j) < end && j < source {
                let overlap = min(end, Double(j + 1)) - max(start, Double(j))
                if overlap > 1e-9 { taps.append((j, Float(overlap / (end - start)))) }
                j += 1
            }
            if taps.isEmpty { taps.append((min(source - 1, Int(start)), 1)) }
            return taps
        }
    }

    /// Scales to `size` and blends against `background`: packed RGB888, `width * height * 3` bytes.
    static func rgb(_ image: Image, size: PixelSize, background: RGBColor) -> [UInt8] {
        let premultiplied = scaledPremultiplied(image, size: size)
        let bg = (Float(background.r), Float(background.g), Float(background.b))
        var out = [UInt8](repeating: 0, count: size.width * size.height * 3)
        out.withUnsafeMutableBufferPointer { o in
            premultiplied.withUnsafeBufferPointer { p in
                for i in 0..<(size.width * size.height) {
                    let a = p[i * 4 + 3] / 255
                    o[i * 3] = clamp(p[i * 4] + bg.0 * (1 - a))
                    o[i * 3 + 1] = clamp(p[i * 4 + 1] + bg.1 * (1 - a))
                    o[i * 3 + 2] = clamp(p[i * 4 + 2] + bg.2 * (1 - a))
                }
            }
        }
        return out
    }

    /// Scales to `size` keeping alpha: packed straight-alpha RGBA8.
    static func rgba(_ image: Image, size: PixelSize) -> [UInt8] {
        if size == image.size { return image.pixels }
        let premultiplied = scaledPremultiplied(image, size: size)
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for i in 0..<(size.width * size.height) {
            let a = premultiplied[i * 4 + 3]
            out[i * 4 + 3] = clamp(a)
            guard a > 0 else { continue }
            for c in 0..<3 { out[i * 4 + c] = clamp(premultiplied[i * 4 + c] * 255 / a) }
        }
        return out
    }

    @inline(__always)
    static func clamp(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v + 0.5))) }

    /// Two separable box passes over premultiplied floats; returns RGBA floats (0…255, premultiplied).
    static func scaledPremultiplied(_ image: Image, size: PixelSize) -> [Float] {
        let (sw, sh, tw, th) = (image.width, image.height, size.width, size.height)
        let xTaps = weights(source: sw, target: tw)
        let yTaps = weights(source: sh, target: th)
        var horizontal = [Float](repeating: 0, count: tw * sh * 4)
        image.pixels.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { h in
                for y in 0..<sh {
                    let row = y * sw * 4
                    for x in 0..<tw {
                        var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        for tap in xTaps[x] {
                            let s = row + tap.index * 4
                            let a = Float(src[s + 3]) * tap.weight
                            acc.0 += Float(src[s]) * a / 255
                            acc.1 += Float(src[s + 1]) * a / 255
                            acc.2 += Float(src[s + 2]) * a / 255
                            acc.3 += a
                        }
                        let d = (y * tw + x) * 4
                        h[d] = acc.0
                        h[d + 1] = acc.1
                        h[d + 2] = acc.2
                        h[d + 3] = acc.3
                    }
                }
            }
        }
        var out = [Float](repeating: 0, count: tw * th * 4)
        horizontal.withUnsafeBufferPointer { h in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<th {
                    for tap in yTaps[y] {
                        let srcRow = tap.index * tw * 4
                        let dstRow = y * tw * 4
                        for k in 0..<(tw * 4) { o[dstRow + k] += h[srcRow + k] * tap.weight }
                    }
                }
            }
        }
        return out
    }
}
