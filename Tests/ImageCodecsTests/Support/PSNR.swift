import Foundation
@testable import ImageCodecs

/// Peak signal-to-noise ratio of two RGBA8 buffers, in dB, over premultiplied RGB and alpha (as
/// `Reference.meanAbsoluteDifference`: the colour of fully transparent pixels does not count).
/// Infinity when they are equal, 0 on a size mismatch.
enum PSNR {
    static func of(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var total = 0.0
        var i = 0
        while i < a.count {
            let aa = Double(a[i + 3]) / 255, ba = Double(b[i + 3]) / 255
            for c in 0..<3 {
                let d = Double(a[i + c]) * aa - Double(b[i + c]) * ba
                total += d * d
            }
            let d = Double(a[i + 3]) - Double(b[i + 3])
            total += d * d
            i += 4
        }
        let mse = total / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Decodes `name`, compares with its reference (`Reference.pixels`), prints the figure, returns both.
    static func decode(_ name: String, options: DecodeOptions = DecodeOptions(), reference: String? = nil, size: PixelSize? = nil) throws -> (image: Image, psnr: Double) {
        let image = try ImageCoders.decode(try Reference.data(name), options: options)
        let psnr = of(image.pixels, try Reference.pixels(reference ?? name, size: size))
        print("PSNR \(name)\(size.map { " @\($0)" } ?? ""): \(String(format: "%.2f", psnr)) dB")
        return (image, psnr)
    }
}
