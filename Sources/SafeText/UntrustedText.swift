/// The one place that decides which characters from outside (network reason phrases, header
/// values, curl messages, terminal replies, titles in URL lists) may reach a terminal.
///
/// Unsafe: C0 controls (ESC, CR, LF, TAB, BEL…), DEL, C1 controls (incl. the 8-bit CSI 0x9B), the
/// Unicode line/paragraph separators, and every format character (general category Cf: the bidi
/// marks and embedding/override/isolate controls, the Arabic letter mark, zero-width spaces and
/// joiners, invisible operators, the BOM, interlinear annotation controls, tag characters…). Format
/// characters are invisible and take no column: text made of them would pass any width check.
///
/// ```swift
/// let reason = UntrustedText.sanitize(response.reason, maxLength: 80)   // "Not\u{1B}[2J Found" → "Not [2J Found"
/// let name = UntrustedText.strip(xtversion)                              // controls removed
/// ```
public enum UntrustedText {
    /// Default longest result of `sanitize`, in Unicode scalars.
    public static let maxLength = 512

    /// Replaces every unsafe character by a space, trims spaces at both ends and caps the length.
    public static func sanitize(_ text: String, maxLength: Int = UntrustedText.maxLength) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= maxLength { break }
            out.append(isUnsafe(scalar) ? " " : scalar)
            count += 1
        }
        return trimmingSpaces(String(out))
    }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD), then `sanitize`s them.
    public static func sanitize(bytes: some Collection<UInt8>, maxLength: Int = UntrustedText.maxLength) -> String {
        sanitize(String(decoding: Array(bytes), as: UTF8.self), maxLength: maxLength)
    }

    /// Removes every unsafe character (no replacement, no trimming, no cap).
    public static func strip(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isUnsafe(scalar) { out.append(scalar) }
        return String(out)
    }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD), then `strip`s them.
    public static func strip(bytes: some Collection<UInt8>) -> String {
        strip(String(decoding: Array(bytes), as: UTF8.self))
    }

    /// Whether `scalar` must never reach a terminal from outside.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x20...0x7E: return false
        case 0xE0000...0xE007F: return true  // tag characters (the unassigned ones too)
        default: return scalar.properties.generalCategory == .format
        }
    }

    private static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
              let last = scalars.lastIndex(where: { $0 != " " }) else { return "" }
        return String(scalars[first...last])
    }
}
