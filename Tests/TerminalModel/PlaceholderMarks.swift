import CVTerm
import TerminalGraphics

/// kitty's placeholder marks as libvterm can hold them. libvterm's width table predates Unicode 5.1
/// and reads 134 of kitty's 297 row/column diacritics (U+0816…, U+1DCB…, U+2DE0…, U+A8E0…) as
/// spacing characters, so a placeholder cell would spill into the next ones. Before text reaches
/// libvterm, each such mark is swapped for a combining mark libvterm does know and kitty does not
/// use (`substitute`); reading a placeholder cell swaps it back (`original`). Both tables are found
/// by asking libvterm itself, so a newer libvterm needs fewer swaps.
struct PlaceholderMarks {
    /// kitty mark → the mark libvterm gets instead.
    static let substitute: [UInt32: UInt32] = {
        let kitty = Set(KittyPlaceholders.diacritics)
        let unknown = KittyPlaceholders.diacritics.filter { !combines($0) }
        var spare: [UInt32] = []
        var candidate: UInt32 = 0x300
        while spare.count < unknown.count && candidate < 0xFFFF {
            if !kitty.contains(candidate), combines(candidate) { spare.append(candidate) }
            candidate += 1
        }
        return Dictionary(uniqueKeysWithValues: zip(unknown, spare))
    }()

    /// The mark libvterm holds → kitty's mark.
    static let original: [UInt32: UInt32] = Dictionary(uniqueKeysWithValues: substitute.map { ($1, $0) })

    /// Whether libvterm puts `mark` in the cell before it (width 0).
    private static func combines(_ mark: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(mark), let terminal = cvt_new(1, 4) else { return false }
        defer { cvt_free(terminal) }
        let text = Array(("a" + String(Character(scalar))).utf8)
        text.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { cvt_write(terminal, $0.baseAddress, $0.count) } }
        var row: Int32 = 0, column: Int32 = 0
        cvt_cursor(terminal, &row, &column)
        return column == 1
    }

    /// Bytes of a UTF-8 sequence left unfinished by the last `swap`.
    private var carry: [UInt8] = []

    /// `text` (UTF-8, possibly split anywhere) with kitty's unknown marks swapped.
    mutating func swap(_ text: [UInt8]) -> [UInt8] {
        var bytes = carry + text
        carry = []
        // Keep an unfinished trailing sequence for the next call.
        var start = bytes.count - 1
        while start >= 0 && start >= bytes.count - 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        if start >= 0 && bytes[start] >= 0xC0 {
            let length = bytes[start] >= 0xF0 ? 4 : bytes[start] >= 0xE0 ? 3 : 2
            if bytes.count - start < length { carry = Array(bytes[start...]); bytes.removeLast(bytes.count - start) }
        }
        guard bytes.contains(where: { $0 >= 0xC0 }) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if let swapped = Self.substitute[scalar.value], let mark = Unicode.Scalar(swapped) {
                out += Array(String(Character(mark)).utf8)
            } else {
                out += Array(String(Character(scalar)).utf8)
            }
        }
        return out
    }
}
