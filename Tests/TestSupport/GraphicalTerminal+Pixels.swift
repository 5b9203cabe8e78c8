import Foundation

/// Screens read pixel by pixel: for tests that measure where an image landed, to the pixel.
extension GraphicalTerminal {
    /// A screenshot as packed RGB888.
    public struct Pixels: Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// `width * height * 3` bytes, row by row.
        public var rgb: [UInt8]

        /// The colour at (x, y).
        public func at(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
            let i = (y * width + x) * 3
            return (rgb[i], rgb[i + 1], rgb[i + 2])
        }
    }

    /// Reads a PNG screenshot (`screenshot(to:)`, `settledScreenshot(to:)`) as pixels, through a
    /// binary PPM that ImageMagick writes next to it.
    public static func pixels(of png: String) throws -> Pixels {
        let ppm = png + ".ppm"
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        let result = try run("/usr/bin/convert", [png, "-depth", "8", ppm], timeout: 30)
        guard result.status == 0, let pixels = parsePPM([UInt8](try Data(contentsOf: URL(fileURLWithPath: ppm)))) else {
            throw TerminalError(message: "cannot read \(png) as pixels: \(result.err)")
        }
        return pixels
    }

    /// Parses a binary PPM (P6, maxval 255).
    static func parsePPM(_ bytes: [UInt8]) -> Pixels? {
        guard bytes.starts(with: Array("P6".utf8)) else { return nil }
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count && [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
            var value = 0
            while i < bytes.count && (0x30...0x39).contains(bytes[i]) { value = value * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(value)
        }
        i += 1
        guard fields.count == 3, fields[2] == 255, bytes.count - i >= fields[0] * fields[1] * 3 else { return nil }
        return Pixels(width: fields[0], height: fields[1], rgb: Array(bytes[i..<(i + fields[0] * fields[1] * 3)]))
    }
}
