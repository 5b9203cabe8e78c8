import Foundation
/// One byte range of a `Range` request header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or
/// `bytes=-n` (the last n bytes). The servers of this project (the demo and benchmark server, the
/// tests' stub server) answer such requests with a 206; several ranges are not supported (nil: the
/// whole body is sent).
public enum HTTPByteRange {
    /// The half-open range `header` asks for within a body of `count` bytes; nil when it is
    /// malformed, asks for several ranges, or cannot be satisfied.
    public static func parse(_ header: String, count: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(","), count > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case let (a?, b?) where a >= 0 && a <= b && a < count: return a..<min(b + 1, count)
        case let (a?, nil) where spec[1].isEmpty && a >= 0 && a < count: return a..<count
        case let (nil, n?) where spec[0].isEmpty && n > 0: return max(0, count - n)..<count
        default: return nil
        }
    }
}
