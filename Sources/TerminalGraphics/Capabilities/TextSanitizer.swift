/// Strips control characters from text that came from outside (terminal replies, network), so it
/// can be shown without the terminal interpreting it.
public enum TextSanitizer {
    /// Removes C0 controls (including ESC, CR, LF, TAB), DEL and C1 controls; keeps printable text.
    public static func strip(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) { scalars.append(scalar) }
        return String(scalars)
    }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD) and strips control characters.
    public static func strip(bytes: some Collection<UInt8>) -> String {
        strip(String(decoding: Array(bytes), as: UTF8.self))
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0x2028 || v == 0x2029
            || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }
}
