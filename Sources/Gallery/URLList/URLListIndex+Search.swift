import Foundation

/// The `/` filter's scan: raw lines, ASCII case ignored, no parsing. A range of positions at a
/// time, so a long list is scanned in chunks off the UI thread (`FilterScan`).
extension URLListIndex {
    /// The positions whose raw line contains `needle`, ASCII case ignored (one pass over the
    /// bytes, no parsing).
    public func positions(containing needle: String) -> [Int] {
        positions(containing: needle, in: 0..<count)
    }

    /// The positions in `range` whose raw line contains `needle`, ASCII case ignored. With
    /// `releasingPages`, the pages of a file mapping the scan read are given back as it goes (the
    /// index stays resident, not the file).
    public func positions(containing needle: String, in range: Range<Int>, releasingPages: Bool = false) -> [Int] {
        let range = range.clamped(to: 0..<count)
        let pattern = Array(needle.utf8).map(Self.lowerASCII)
        guard !pattern.isEmpty else { return Array(range) }
        guard !range.isEmpty else { return [] }
        let found = bytes.withUnsafeBytes { raw -> [Int] in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var found: [Int] = []
            for position in range {
                let start = starts[position]
                // A line over the length cap is searched only as far as its diagnostic shows.
                if let long = longLines[position] {
                    if Self.line(base + start, length: min(long, URLList.maximumLineLength + 2), contains: pattern) { found.append(position) }
                    continue
                }
                let end = memchr(base + start, 0x0A, raw.count - start).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? raw.count
                if Self.line(base + start, length: end - start, contains: pattern) { found.append(position) }
            }
            return found
        }
        if releasingPages, let mappedPages {
            let end = range.upperBound < count ? starts[range.upperBound] : bytes.count
            mappedPages.release(starts[range.lowerBound]..<end)
        }
        return found
    }

    /// Whether the `length` bytes at `line` contain `pattern` (already lowercased), ASCII case ignored.
    @inline(__always)
    static func line(_ line: UnsafePointer<UInt8>, length: Int, contains pattern: [UInt8]) -> Bool {
        guard length >= pattern.count else { return false }
        let first = pattern[0]
        var i = 0
        while i + pattern.count <= length {
            if lowerASCII(line[i]) == first {
                var k = 1
                while k < pattern.count && lowerASCII(line[i + k]) == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            i += 1
        }
        return false
    }
}
