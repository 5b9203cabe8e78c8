/// The one place that decides which characters from outside (network reason phrases, header
/// values, curl messages, terminal replies, titles in URL lists) may reach a terminal.
///
/// Unsafe: C0 controls (ESC, CR, LF, TAB, BEL…), DEL, C1 controls (incl. the 8-bit CSI 0x9B), the
/// Unicode line/paragraph separators, every format character (general category Cf: the bidi
/// marks and embedding/override/isolate controls, the Arabic letter mark, zero-width spaces and
/// joiners, invisible operators, the BOM, interlinear annotation controls, tag characters…) and
/// every other default-ignorable code point (the combining grapheme joiner, Hangul fillers,
/// variation selectors, Khmer inherent vowels…). They are invisible and take no column: text made
/// of them would pass any width check.
///
/// An escape sequence goes whole, not only its ESC: `ESC [ … final`, `ESC ] … BEL/ST`, the strings
/// `ESC P`/`X`/`^`/`_` … ST, two-byte `ESC x`, and their 8-bit C1 forms. Leaving the printable rest
/// ("404 Not [2J Found ]0;x") showed the attack's text in the caption.
///
/// ```swift
/// let reason = UntrustedText.sanitize(response.reason, maxLength: 80)   // "Not\u{1B}[2J Found" → "Not Found"
/// let name = UntrustedText.strip(xtversion)                              // controls removed
/// ```
public enum UntrustedText {
    /// Default longest result of `sanitize`, in Unicode scalars.
    public static let maxLength = 512

    /// Replaces every unsafe character by a space, trims spaces at both ends and caps the length.
    public static func sanitize(_ text: String, maxLength: Int = UntrustedText.maxLength) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        forEachOutsideEscapeSequences(text) { scalar in
            guard count < maxLength else { return false }
            out.append(isUnsafe(scalar) ? " " : scalar)
            count += 1
            return true
        }
        return trimmingSpaces(String(out))
    }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD), then `sanitize`s them.
    public static func sanitize(bytes: some Collection<UInt8>, maxLength: Int = UntrustedText.maxLength) -> String {
        sanitize(String(decoding: Array(bytes), as: UTF8.self), maxLength: maxLength)
    }

    /// Removes every escape sequence and every unsafe character (no replacement, no trimming, no cap).
    public static func strip(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        forEachOutsideEscapeSequences(text) { scalar in
            if !isUnsafe(scalar) { out.append(scalar) }
            return true
        }
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
        default: return scalar.properties.generalCategory == .format || scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// Where the scanner is: in text, after an ESC, in a control sequence's parameters, in a control
    /// string (OSC, DCS, SOS, PM, APC) or in a two-byte sequence's intermediates.
    private enum EscapeState { case text, escape, controlSequence, controlString, intermediates }

    /// Calls `body` with each scalar of `text` outside escape sequences, in order, until it returns
    /// false. A sequence cut short by a scalar that cannot continue it ends there, and that scalar is
    /// read as text again; a control string runs to BEL, ST (`ESC \\` or 0x9C) or the end.
    static func forEachOutsideEscapeSequences(_ text: String, _ body: (Unicode.Scalar) -> Bool) {
        var state = EscapeState.text
        for scalar in text.unicodeScalars {
            var again = true
            while again {
                again = false
                let value = scalar.value
                switch state {
                case .text:
                    switch value {
                    case 0x1B: state = .escape
                    case 0x9B: state = .controlSequence
                    case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .controlString
                    default: if !body(scalar) { return }
                    }
                case .escape:
                    switch value {
                    case 0x1B: state = .escape
                    case 0x5B: state = .controlSequence                          // [
                    case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .controlString    // ] P X ^ _
                    case 0x20...0x2F: state = .intermediates
                    case 0x30...0x7E: state = .text                               // ESC x, ESC \\ …
                    default:
                        state = .text
                        again = true
                    }
                case .controlSequence:
                    switch value {
                    case 0x20...0x3F: break
                    case 0x40...0x7E: state = .text
                    case 0x1B: state = .escape
                    default:
                        state = .text
                        again = true
                    }
                case .controlString:
                    switch value {
                    case 0x07, 0x9C: state = .text
                    case 0x1B: state = .escape
                    default: break
                    }
                case .intermediates:
                    switch value {
                    case 0x20...0x2F: break
                    case 0x30...0x7E: state = .text
                    default:
                        state = .text
                        again = true
                    }
                }
            }
        }
    }

    private static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }),
              let last = scalars.lastIndex(where: { $0 != " " }) else { return "" }
        return String(scalars[first...last])
    }
}
