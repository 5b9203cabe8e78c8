import Foundation

/// A list held as its bytes plus the offset of every line that may name an image, built in one
/// byte-level pass (`memchr`). Nothing is parsed up front: `entry(at:)` parses one line when the
/// gallery needs it (on screen, prefetch, full view). Blank and `#` lines are left out of the index
/// (that needs only each line's first non-blank byte); every other line is an index position, good
/// or bad — a bad line is reported when it is parsed.
///
/// Cost per line: 12 bytes (an `Int` offset and a `UInt32` line number). The bytes are a
/// read-only memory map for files (pages the index pass read are given back as it goes) and one
/// buffer for standard input.
///
/// ```swift
/// let index = URLListIndex(bytes: Data("# photos\nhttps://e.example/a.jpg Sunset\n".utf8),
///                          baseDirectory: URL(fileURLWithPath: "/home/me"))
/// index.count                 // 1
/// try index.entry(at: 0).get().title  // "Sunset"
/// ```
public struct URLListIndex: Sendable {
    /// The list's bytes.
    public let bytes: Data
    /// Folder that relative paths resolve against.
    public let baseDirectory: URL
    /// Expands `~/`.
    public let home: String?
    var starts: [Int] = []
    private var lineNumbers: [UInt32] = []
    /// The length of each indexed line over `URLList.maximumLineLength`, by position: `entry(at:)`
    /// and the `/` filter then read only the line's first bytes (never a sparse file's hole).
    private(set) var longLines: [Int: Int] = [:]
    /// The memory map `bytes` live in, when they are one: a scan gives its pages back behind it.
    var mappedPages: MappedPages?

    /// Indexes `bytes` (one pass, no parsing).
    /// `firstLine` numbers the lines (in diagnostics) when `bytes` continue an earlier part.
    public init(bytes: Data, baseDirectory: URL, home: String? = ProcessInfo.processInfo.environment["HOME"],
                firstLine: Int = 1, releasingPagesBehind release: ((Int) -> Void)? = nil) {
        self.init(bytes: bytes, baseDirectory: baseDirectory, home: home, firstLine: firstLine, releasingPagesBehind: release, extents: nil)
    }

    /// Indexes `bytes`, the mapped file `extents` describes: the search for a line's end jumps the
    /// file's holes (zeros, so no newline) instead of reading them.
    init(bytes: Data, baseDirectory: URL, home: String?, firstLine: Int, releasingPagesBehind release: ((Int) -> Void)?, extents: FileExtents?) {
        self.bytes = bytes
        self.baseDirectory = baseDirectory
        self.home = home
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let end = raw.count
            var position = 0
            if end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
            var number = UInt32(clamping: max(0, firstLine - 1))
            var released = 0
            starts.reserveCapacity(min(end / 48, 1 << 22))
            lineNumbers.reserveCapacity(min(end / 48, 1 << 22))
            var extent = extents == nil ? 0..<end : 0..<0
            // The first newline at or after `from`, reading only the file's data (holes are zeros).
            func newline(from: Int) -> Int? {
                var from = from
                while from < end {
                    if let extents, !extent.contains(from) {
                        guard let next = extents.data(from: from) else { return nil }
                        extent = next
                        from = max(from, next.lowerBound)
                    }
                    let stop = extents == nil ? end : extent.upperBound
                    if let hit = memchr(base + from, 0x0A, stop - from) {
                        return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                    }
                    from = stop
                }
                return nil
            }
            while position < end {
                number &+= 1
                let lineStart = position
                var first = position
                while first < end, base[first] == 0x20 || base[first] == 0x09 { first += 1 }
                let newline = newline(from: first)
                let next = newline.map { $0 + 1 } ?? end
                // Blank unless something but a CR ("\r\n" ends the line; one more CR is trimmed) follows the blanks.
                var last = newline ?? end
                if newline != nil, last > first, base[last - 1] == 0x0D { last -= 1 }
                if last > first, base[last - 1] == 0x0D { last -= 1 }
                if last > first, base[first] != 0x23 {
                    starts.append(lineStart)
                    lineNumbers.append(number)
                    var length = newline ?? end
                    if length > lineStart, base[length - 1] == 0x0D { length -= 1 }
                    if length > lineStart, base[length - 1] == 0x0D { length -= 1 }
                    length -= lineStart
                    if length > URLList.maximumLineLength + 1 { longLines[starts.count - 1] = length }
                }
                position = next
                if let release, position - released >= 8 << 20 {
                    release(position)
                    released = position
                }
            }
        }
        release?(bytes.count)
    }

    /// An index over entries already parsed (the demo's list): written out as list text, one URL
    /// (percent-encoded, so no spaces) and title a line.
    public init(entries: [URLListEntry]) {
        let text = entries.map { entry in
            entry.location.url.absoluteString + (entry.title.map { " " + $0 } ?? "")
        }.joined(separator: "\n")
        self.init(bytes: Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"), home: nil)
    }

    /// Number of indexed lines (good or bad).
    public var count: Int { starts.count }

    /// Parses indexed line `position`: the entry, or why the line cannot be used.
    public func entry(at position: Int) -> Result<URLListEntry, URLListDiagnostic> {
        let number = Int(lineNumbers[position])
        let (line, length): (Substring, Int) = bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let start = starts[position]
            if let long = longLines[position] {
                // A line over the limit becomes text only as far as its diagnostic shows.
                let kept = min(long, URLList.maximumLineLength + 2)
                return (Substring(String(decoding: UnsafeBufferPointer(start: base + start, count: kept), as: UTF8.self)), long)
            }
            var end = memchr(base + start, 0x0A, raw.count - start).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? raw.count
            if end > start, base[end - 1] == 0x0D { end -= 1 }
            let kept = min(end - start, URLList.maximumLineLength + 2)
            let length = end > start && base[end - 1] == 0x0D ? end - start - 1 : end - start
            return (Substring(String(decoding: UnsafeBufferPointer(start: base + start, count: kept), as: UTF8.self)), length)
        }
        if length > URLList.maximumLineLength + 1 {
            return .failure(URLListDiagnostic(line: number, problem: .lineTooLong(length), text: line.prefix(80)))
        }
        return URLList.parseLine(line, number: number, baseDirectory: baseDirectory, home: home)
            ?? .failure(URLListDiagnostic(line: number, problem: .malformedURL, text: line))
    }

    /// Every line parsed: for small lists, the contact sheet and tests. O(lines); the gallery never calls it.
    public var parsedList: URLList {
        var list = URLList()
        for position in 0..<count {
            switch entry(at: position) {
            case .success(let entry): list.entries.append(entry)
            case .failure(let diagnostic): list.diagnostics.append(diagnostic)
            }
        }
        return list
    }

    @inline(__always)
    static func lowerASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
