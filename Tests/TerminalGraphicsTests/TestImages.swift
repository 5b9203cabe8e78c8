import ImageCodecs

/// Synthetic images for renderer tests.
enum TestImages {
    /// An image from explicit RGBA tuples, row-major.
    static func make(width: Int, height: Int, _ pixels: [(UInt8, UInt8, UInt8, UInt8)]) -> Image {
        Image(width: width, height: height, pixels: pixels.flatMap { [$0.0, $0.1, $0.2, $0.3] })
    }

    /// One opaque colour.
    static func solid(width: Int, height: Int, r: UInt8, g: UInt8, b: UInt8) -> Image {
        Image(width: width, height: height, pixels: Array([[r, g, b, 255]].joined()).repeated(width * height))
    }

    /// A photo-like picture: smooth gradients, a soft disc and deterministic noise.
    static func photo(width: Int, height: Int, seed: UInt64 = 1) -> Image {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let (cx, cy) = (Double(width) * 0.6, Double(height) * 0.4)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Double(Int(state >> 59) - 16) * 0.6
                let fx = Double(x) / Double(max(1, width - 1)), fy = Double(y) / Double(max(1, height - 1))
                let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                let disc = max(0, 1 - d / (Double(min(width, height)) * 0.45))
                let i = (y * width + x) * 4
                pixels[i] = clamp(40 + 180 * fx + 30 * disc + noise)
                pixels[i + 1] = clamp(60 + 120 * fy + 60 * disc + noise)
                pixels[i + 2] = clamp(200 - 150 * fx * fy + noise)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}

extension Array {
    func repeated(_ times: Int) -> [Element] { Array([[Element]](repeating: self, count: times).joined()) }
}

/// The bytes of a string written with `\u{1B}` escapes, for expected outputs.
func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
