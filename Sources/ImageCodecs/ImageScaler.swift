/// Downscaling by area averaging: every output pixel is the coverage-weighted mean of the source
/// pixels under it (a box filter with fractional edges), colours weighted by alpha so transparent
/// pixels do not darken edges. Separable: each output row accumulates its source rows, then columns.
enum ImageScaler {
    /// Source spans and weights of each output index along one axis.
    struct Axis {
        var start: [Int] = []
        var count: [Int] = []
        var weights: [Float] = []   // flattened, `count[i]` entries per output index
        var offset: [Int] = []

        /// `extent` is how many source pixels hold real content (fewer than `source` when a DCT-scaled
        /// JPEG's last pixel stands for a partial block); the destination spans exactly that.
        init(source: Int, extent: Double, destination: Int) {
            let scale = min(Double(source), max(extent, 1e-6)) / Double(destination)
            for i in 0..<destination {
                let lo = Double(i) * scale, hi = min(Double(source), Double(i + 1) * scale)
                let first = min(source - 1, Int(lo)), last = max(first, min(source - 1, Int((hi - 1e-9).rounded(.down))))
                start.append(first)
                count.append(last - first + 1)
                offset.append(weights.count)
                var total: Double = 0
                var span: [Double] = []
                for j in first...last {
                    let w = max(0, min(hi, Double(j + 1)) - max(lo, Double(j)))
                    span.append(w)
                    total += w
                }
                for w in span { weights.append(Float(total > 0 ? w / total : 1 / Double(span.count))) }
            }
        }
    }

    /// `source` scaled to `size` by area averaging; `extent` (default: the whole source) is the part
    /// of the source, in pixels from the top-left, that maps onto the output.
    static func areaAverage(_ source: Bitmap, to size: PixelSize, extent: (width: Double, height: Double)? = nil) -> Bitmap {
        source.pixels.withUnsafeBufferPointer { areaAverage($0, width: source.width, height: source.height, to: size, extent: extent) }
    }

    /// The same from a buffer of `width × height` RGBA pixels (a decoder's own, not copied first).
    static func areaAverage(_ src: UnsafeBufferPointer<UInt8>, width sw: Int, height sh: Int, to size: PixelSize,
                            extent: (width: Double, height: Double)? = nil) -> Bitmap {
        let dw = size.width, dh = size.height
        let columns = Axis(source: sw, extent: extent?.width ?? Double(sw), destination: dw)
        let rows = Axis(source: sh, extent: extent?.height ?? Double(sh), destination: dh)
        var out = [UInt8](repeating: 0, count: dw * dh * 4)
        var acc = [Float](repeating: 0, count: sw * 4)
        out.withUnsafeMutableBufferPointer { dst in
            acc.withUnsafeMutableBufferPointer { acc in
                for oy in 0..<dh {
                    for i in 0..<acc.count { acc[i] = 0 }
                    let o = rows.offset[oy]
                    for k in 0..<rows.count[oy] {
                        accumulateRow(src, row: rows.start[oy] + k, width: sw, weight: rows.weights[o + k], into: acc)
                    }
                    reduceRow(acc, columns: columns, into: dst, row: oy, width: dw)
                }
            }
        }
        return Bitmap(width: dw, height: dh, pixels: out)
    }

    /// acc += weight × (r·a, g·a, b·a, a) for each pixel of one source row.
    @inline(__always)
    private static func accumulateRow(
        _ src: UnsafeBufferPointer<UInt8>, row: Int, width: Int, weight: Float, into acc: UnsafeMutableBufferPointer<Float>
    ) {
        var i = row * width * 4
        var j = 0
        for _ in 0..<width {
            let wa = weight * Float(src[i + 3])
            acc[j] += wa * Float(src[i])
            acc[j + 1] += wa * Float(src[i + 1])
            acc[j + 2] += wa * Float(src[i + 2])
            acc[j + 3] += wa
            i += 4
            j += 4
        }
    }

    /// Averages the accumulated row horizontally and un-premultiplies into the output row.
    @inline(__always)
    private static func reduceRow(
        _ acc: UnsafeMutableBufferPointer<Float>, columns: Axis, into dst: UnsafeMutableBufferPointer<UInt8>, row: Int, width: Int
    ) {
        var d = row * width * 4
        for ox in 0..<width {
            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
            let o = columns.offset[ox]
            var s = columns.start[ox] * 4
            for k in 0..<columns.count[ox] {
                let w = columns.weights[o + k]
                r += w * acc[s]; g += w * acc[s + 1]; b += w * acc[s + 2]; a += w * acc[s + 3]
                s += 4
            }
            if a > 0.001 {
                dst[d] = clamp(r / a); dst[d + 1] = clamp(g / a); dst[d + 2] = clamp(b / a); dst[d + 3] = clamp(a)
            }
            d += 4
        }
    }

    @inline(__always)
    private static func clamp(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v + 0.5))) }
}
