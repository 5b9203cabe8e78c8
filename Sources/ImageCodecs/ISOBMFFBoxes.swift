/// The top-level boxes of an ISOBMFF file (AVIF, HEIC), walked by their headers only: tells a cut
/// download from damaged data when a library just says it could not parse.
enum ISOBMFFBoxes {
    /// Whether the data ends inside a top-level box whose header is well formed (a size at least its
    /// header, a type of four letters, digits or spaces) after whole boxes: a truncated file. Damaged
    /// data (a header of noise) is not.
    static func endsInsideABox(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let left = bytes.count - offset
            guard left >= 8 else { return true }
            let type = (4..<8).map { bytes[offset + $0] }
            guard type.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x20 }) else { return false }
            var size = UInt64((0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) })
            var header: UInt64 = 8
            if size == 1 {
                guard left >= 16 else { return true }
                size = (8..<16).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
                header = 16
            } else if size == 0 {
                return false  // to the end of the file
            }
            guard size >= header else { return false }
            if size > UInt64(left) { return true }
            offset += Int(size)
        }
        return false
    }

    /// Calls `visit` with the type and body of each whole box in `range` (a 64-bit size, or 0: to the
    /// end, as the format allows), stopping at the first header that does not fit.
    static func forEachBox(in range: Range<Int>, of bytes: UnsafeRawBufferPointer, _ visit: (String, Range<Int>) -> Void) {
        func u(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        var offset = range.lowerBound
        while range.upperBound - offset >= 8 {
            var size = u(offset, 4), header = 8
            if size == 1, range.upperBound - offset >= 16 {
                size = u(offset + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { return }
            visit(String(decoding: (4..<8).map { bytes[offset + $0] }, as: UTF8.self), (offset + header)..<(offset + size))
            offset += size
        }
    }

    /// Walks the box tree from the top: `visit` gets each box's type and body and returns the range
    /// to descend into (a container's children; nil: none), at most `maxDepth` levels down. A `meta`
    /// box is a full box: its children start after its 4 bytes of version and flags.
    static func walk(_ bytes: UnsafeRawBufferPointer, maxDepth: Int, _ visit: (String, Range<Int>) -> Range<Int>?) {
        func walk(_ range: Range<Int>, depth: Int) {
            guard depth < maxDepth else { return }
            forEachBox(in: range, of: bytes) { type, body in
                if type == "meta" {
                    if body.count >= 4 { walk((body.lowerBound + 4)..<body.upperBound, depth: depth + 1) }
                } else if let children = visit(type, body) {
                    walk(children, depth: depth + 1)
                }
            }
        }
        walk(0..<bytes.count, depth: 0)
    }

    /// The largest image size the file announces, read from the boxes alone: every item's `ispe`
    /// (meta/iprp/ipco) and every track's `tkhd` (moov/trak), or nil when it announces none. What
    /// a library that refuses an oversized header without saying the size is asked about.
    static func largestAnnouncedSize(_ bytes: UnsafeRawBufferPointer) -> PixelSize? {
        var largest: PixelSize?
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        func note(_ width: Int, _ height: Int) {
            // Sides of up to 2³² would overflow an area: capped at 2³¹ - 1 (over any pixel cap).
            let width = min(width, Int(Int32.max)), height = min(height, Int(Int32.max))
            if width > 0, height > 0, width * height > (largest?.area ?? 0) { largest = PixelSize(width: width, height: height) }
        }
        walk(bytes, maxDepth: 8) { type, body in
            switch type {
            case "iprp", "ipco", "moov", "trak": return body
            case "ispe" where body.count >= 12: note(u32(body.lowerBound + 4), u32(body.lowerBound + 8))
            case "tkhd":
                // Version 0: 32-bit times; 1: 64-bit. Width and height (16.16) end the box.
                let end = body.lowerBound + (bytes[body.lowerBound] == 1 ? 96 : 84)
                if end <= body.upperBound { note(u32(end - 8) >> 16, u32(end - 4) >> 16) }
            default: break
            }
            return nil
        }
        return largest
    }

    /// The item types a HEIF file's `meta/iinf` names (`infe` version 2 and 3: "hvc1", "grid",
    /// "iovl", "Exif"…), read from the boxes alone.
    static func itemTypes(_ bytes: UnsafeRawBufferPointer) -> Set<String> {
        var types = Set<String>()
        walk(bytes, maxDepth: 4) { type, body in
            switch type {
            case "iinf" where body.count >= 6: return (body.lowerBound + (bytes[body.lowerBound] == 0 ? 6 : 8))..<body.upperBound
            case "infe" where body.count >= 4 && bytes[body.lowerBound] >= 2:
                let type = body.lowerBound + 4 + (bytes[body.lowerBound] == 2 ? 2 : 4) + 2
                if type + 4 <= body.upperBound { types.insert(String(decoding: (0..<4).map { bytes[type + $0] }, as: UTF8.self)) }
            default: break
            }
            return nil
        }
        return types
    }

    /// Adds what decoding each item decodes besides, from an `iref` box's body: a derived image its
    /// `dimg` ingredients, an image its `auxl` alpha or depth.
    static func addDecodeUses(iref body: Range<Int>, of bytes: UnsafeRawBufferPointer, to uses: inout [Int: [Int]]) {
        guard body.count >= 4 else { return }
        for reference in itemReferences(in: (body.lowerBound + 4)..<body.upperBound, of: bytes, idWidth: bytes[body.lowerBound] == 0 ? 2 : 4) {
            if reference.type == "dimg" { uses[reference.from, default: []] += reference.to }
            if reference.type == "auxl" { for master in reference.to { uses[master, default: []].append(reference.from) } }
        }
    }

    /// Whether a HEIF file's item references (`meta/iref`: a derived image's `dimg` ingredients, an
    /// image's `auxl` alpha or depth) loop: decoding an item then decodes itself again. libheif 1.15
    /// recursed until the stack ran out on a grid whose alpha was a grid made of the first (fuzz).
    static func referencesLoop(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var uses: [Int: [Int]] = [:]
        walk(bytes, maxDepth: 4) { type, body in
            if type == "iref" { addDecodeUses(iref: body, of: bytes, to: &uses) }
            return nil
        }
        var state: [Int: Bool] = [:]  // false: being visited, true: done
        func loops(_ item: Int) -> Bool {
            if let done = state[item] { return !done }
            state[item] = false
            for next in uses[item] ?? [] where loops(next) { return true }
            state[item] = true
            return false
        }
        return uses.keys.contains { loops($0) }
    }

    /// The references of an `iref` box's body after its version and flags (`range`), item IDs of
    /// `idWidth` bytes (version 0: 2, else 4). Read by what each holds, not by its box's size, as
    /// libheif reads them (a fuzzed size of 0x0a00000e hid a loop's `auxl` from a reading by size);
    /// a header with a 64-bit size (size 1) or a `uuid` type is longer, as libheif reads it too.
    static func itemReferences(in range: Range<Int>, of bytes: UnsafeRawBufferPointer, idWidth: Int) -> [(type: String, from: Int, to: [Int])] {
        func u(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        var references: [(type: String, from: Int, to: [Int])] = []
        var offset = range.lowerBound
        while range.upperBound - offset >= 8 {
            let type = String(decoding: (4..<8).map { bytes[offset + $0] }, as: UTF8.self)
            let header = 8 + (u(offset, 4) == 1 ? 8 : 0) + (type == "uuid" ? 16 : 0)
            guard range.upperBound - offset >= header + idWidth + 2 else { break }
            let from = u(offset + header, idWidth), count = u(offset + header + idWidth, 2)
            let first = offset + header + idWidth + 2
            let to = (0..<count).map { first + $0 * idWidth }.filter { $0 + idWidth <= range.upperBound }.map { u($0, idWidth) }
            references.append((type, from, to))
            offset = first + count * idWidth
        }
        return references
    }
}
