import Foundation
@testable import ImageCodecs

extension Reference {
    /// Peak signal-to-noise ratio in dB over premultiplied RGB and alpha (as
    /// `meanAbsoluteDifference`: the colour of fully transparent pixels does not count). Infinity
    /// for identical images; 0 on a size mismatch.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var total = 0.0
        var i = 0
        while i < a.count {
            let aa = Int(a[i + 3]), ba = Int(b[i + 3])
            for c in 0..<3 {
                let d = Double(Int(a[i + c]) * aa / 255 - Int(b[i + c]) * ba / 255)
                total += d * d
            }
            total += Double((aa - ba) * (aa - ba))
            i += 4
        }
        guard total > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (total / Double(a.count)))
    }

    /// Decodes `name`, compares with its reference, prints the PSNR, and returns it.
    static func psnr(_ name: String, options: DecodeOptions = DecodeOptions(), reference: String? = nil, size: PixelSize? = nil) throws -> (image: Image, psnr: Double) {
        let image = try ImageCoders.decode(try data(name), options: options)
        let value = psnr(image.pixels, try pixels(reference ?? name, size: size))
        print("PSNR \(name)\(size.map { " @\($0)" } ?? ""): \(String(format: "%.2f", value)) dB")
        return (image, value)
    }
}
