import Foundation

/// Screens read as colour counts: for tests that ask "is this image on screen, how often, and is it
/// gone after `q`" rather than comparing two screenshots.
extension GraphicalTerminal {
    /// A screenshot reduced to how many pixels have each colour.
    public struct Histogram: Sendable {
        /// Pixel count per packed 0xRRGGBB colour.
        public var counts: [UInt32: Int]
        /// Pixels of exactly `rgb`.
        public func count(of rgb: (UInt8, UInt8, UInt8)) -> Int {
            counts[UInt32(rgb.0) << 16 | UInt32(rgb.1) << 8 | UInt32(rgb.2)] ?? 0
        }
        /// Pixels whose colour satisfies `matches`.
        public func count(where matches: ((r: UInt8, g: UInt8, b: UInt8)) -> Bool) -> Int {
            counts.reduce(0) { sum, entry in
                let rgb = (r: UInt8(entry.key >> 16 & 0xFF), g: UInt8(entry.key >> 8 & 0xFF), b: UInt8(entry.key & 0xFF))
                return matches(rgb) ? sum + entry.value : sum
            }
        }
    }

    /// The screen now, as a colour histogram (nil when the screenshot failed).
    public func histogram() -> Histogram? {
        guard let result = try? ChildProcess.run("/usr/bin/convert", ["x:root", "-depth", "8", "-format", "%c", "histogram:info:-"],
                                                 timeout: 60, environment: ["DISPLAY": display]),
              result.status == 0 else { return nil }
        var counts: [UInt32: Int] = [:]
        for line in result.out.split(separator: "\n") {
            // "   12345: (255,0,0) #FF0000 red"
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                  let hash = parts[1].firstIndex(of: "#") else { continue }
            let hex = parts[1][parts[1].index(after: hash)...].prefix(6)
            guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else { continue }
            counts[rgb, default: 0] += count
        }
        return Histogram(counts: counts)
    }

    /// Polls the screen until `condition` holds or `timeout` seconds pass; returns whether it held and
    /// the last histogram.
    public func wait(timeout: Double, _ condition: (Histogram) -> Bool) -> (ok: Bool, last: Histogram?) {
        var last: Histogram?
        let ok = Self.waitUntil(timeout: timeout) {
            last = histogram()
            return last.map(condition) ?? false
        }
        return (ok, last)
    }
}
