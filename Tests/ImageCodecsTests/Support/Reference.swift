import Foundation
import TestSupport
@testable import ImageCodecs

/// Codec fixtures (Tests/Fixtures/codecs, made by scripts/make-fixtures) and their reference decodes.
enum Reference {
    /// The bytes of `codecs/<name>`.
    static func data(_ name: String) throws -> Data { try Fixtures.data("codecs/" + name) }

    /// The reference decode `codecs/<name>.rgba` (or `<name>.<WxH>.rgba` for a scaled one).
    static func pixels(_ name: String, size: PixelSize? = nil) throws -> [UInt8] {
        let suffix = size.map { ".\($0.width)x\($0.height)" } ?? ""
        return [UInt8](try data(name + suffix + ".rgba"))
    }

    /// Mean absolute difference per channel over premultiplied RGB and alpha (so the colour of
    /// fully transparent pixels, which no decoder agrees on, does not count). Infinity on a size
    /// mismatch.
    static func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var total = 0
        var i = 0
        while i < a.count {
            let aa = Int(a[i + 3]), ba = Int(b[i + 3])
            for c in 0..<3 { total += abs(Int(a[i + c]) * aa / 255 - Int(b[i + c]) * ba / 255) }
            total += abs(aa - ba)
            i += 4
        }
        return Double(total) / Double(a.count)
    }

    /// Decodes `name`, compares with its reference, prints the figure, and returns it.
    static func difference(_ name: String, options: DecodeOptions = DecodeOptions(), reference: String? = nil, size: PixelSize? = nil) throws -> (image: Image, mad: Double) {
        let image = try ImageCoders.decode(try data(name), options: options)
        let expected = try pixels(reference ?? name, size: size)
        let all = image.frames.isEmpty ? image.pixels : image.frames.flatMap(\.pixels)
        let mad = meanAbsoluteDifference(all, expected)
        print("MAD \(name)\(size.map { " @\($0)" } ?? ""): \(String(format: "%.3f", mad))")
        return (image, mad)
    }
}
