/// A C library's error text made safe to show: printable ASCII only (anything else becomes a
/// space, runs of spaces one), at most 160 characters, never empty.
enum LibraryText {
    static func sanitized(_ text: UnsafePointer<CChar>?, fallback: String) -> String {
        guard let text else { return fallback }
        var out = ""
        var lastWasSpace = true
        var count = 0
        var p = text
        while p.pointee != 0, count < 160 {
            let byte = UInt8(bitPattern: p.pointee)
            if byte > 0x20 && byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
                lastWasSpace = false
                count += 1
            } else if !lastWasSpace {
                out.append(" ")
                lastWasSpace = true
                count += 1
            }
            p += 1
        }
        while out.last == " " { out.removeLast() }
        return out.isEmpty ? fallback : out
    }
}
