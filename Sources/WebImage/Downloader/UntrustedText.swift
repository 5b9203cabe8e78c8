/// Makes text that came from the network (reason phrases, header values, curl messages quoting a
/// URL) safe to print: every control character (C0, DEL, C1, and the Unicode bidi overrides) is
/// replaced by a space, and the result is trimmed and capped in length.
enum UntrustedText {
    /// Longest sanitized string kept, in characters.
    static let maxLength = 512

    /// `text` without control characters, at most `maxLength` characters long.
    static func sanitize(_ text: String, maxLength: Int = UntrustedText.maxLength) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= maxLength { break }
            out.append(isUnsafe(scalar) ? " " : scalar)
            count += 1
        }
        return String(out).trimmingSpaces()
    }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD) and sanitizes them.
    static func sanitize(bytes: UnsafeBufferPointer<UInt8>) -> String {
        sanitize(String(decoding: bytes, as: UTF8.self))
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

extension String {
    /// The string without leading and trailing spaces.
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }) else { return "" }
        guard let last = scalars.lastIndex(where: { $0 != " " }) else { return "" }
        return String(scalars[first...last])
    }
}
