import Foundation
@testable import ImageCodecs

extension Reference {
    /// Peak signal-to-noise ratio in dB over premultiplied RGB and alpha (as
    /// `meanAbsoluteDifference`: the colour of transparent pixels does not count); infinity when equal,
    /// zero on a size mismatch.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var total = 0.0
        var i = 0
        while i < a.count {
            let aa = Int(a[i + 3]), ba = Int(b[i + 3])
            for c in 0..<3 {
                let d = Double(Int(a[i + c]) * aa - Int(b[i + c]) * ba) / 255
                total += d * d
            }
            total += Double((aa - ba) * (aa - ba))
            i += 4
        }
        let mse = total / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Decodes `name`, compares every frame with its reference by PSNR, prints the figure and
    /// returns the image and the worst frame's PSNR.
    static func psnr(_ name: String, options: DecodeOptions = DecodeOptions(), reference: String? = nil, size: PixelSize? = nil) throws -> (image: Image, psnr: Double) {
        let image = try ImageCoders.decode(try data(name), options: options)
        let expected = try pixels(reference ?? name, size: size)
        let frames = image.frames.isEmpty ? [image.pixels] : image.frames.map(\.pixels)
        let frameBytes = expected.count / frames.count
        let worst = frames.enumerated().map { i, frame in
            psnr(frame, Array(expected[min(expected.count, i * frameBytes)..<min(expected.count, (i + 1) * frameBytes)]))
        }.min() ?? 0
        print("PSNR \(name)\(size.map { " @\($0)" } ?? ""): \(String(format: "%.2f", worst)) dB")
        return (image, worst)
    }
}
