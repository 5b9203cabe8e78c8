import CSystem
import SafeText

/// Where text from outside (list files, URLs, titles, network error messages) is made safe (through
/// `SafeText`) and measured for the terminal. Everything shown on screen that did not come from a literal in
/// this program goes through `sanitize` first.
///
/// ```swift
/// let caption = TerminalText.fit(TerminalText.sanitize(title), width: 20)
/// ```
public enum TerminalText {
    /// Removes every character a terminal could interpret: C0 controls (ESC, CR, LF, TAB, BEL…), DEL,
    /// C1 controls (including the 8-bit CSI 0x9B), line/paragraph separators and bidi overrides.
    /// Invalid UTF-8 has already become U+FFFD when the text was decoded, which is kept (it is printable).
    public static func sanitize(_ text: some StringProtocol) -> String { UntrustedText.strip(String(text)) }

    /// Decodes bytes as UTF-8 (invalid sequences become U+FFFD) and sanitizes them.
    public static func sanitize(bytes: some Collection<UInt8>) -> String {
        sanitize(String(decoding: Array(bytes), as: UTF8.self))
    }

    /// Whether `scalar` must never reach the terminal (the one definition, in `SafeText`).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { UntrustedText.isUnsafe(scalar) }

    /// How many terminal columns `scalar` occupies, as glibc's `wcwidth` (what ncursesw itself uses
    /// to place characters) says under a UTF-8 character type: 0 for combining marks and zero-width
    /// characters, 2 for East Asian wide/fullwidth characters and emoji, else 1. Characters that must
    /// never reach the terminal count 0 (they are stripped); others `wcwidth` does not know count 1.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return scalar.value < 0x20 ? 0 : 1 }
        if isUnsafe(scalar) { return 0 }
        let columns = Int(sdg_sys_wcwidth_utf8(scalar.value))
        return columns < 0 ? 1 : columns
    }

    /// Display width of a (sanitized) string in columns.
    public static func width(of text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// Cuts `text` to at most `width` columns, ending with "…" when something was cut. Never splits a
    /// wide character across the limit.
    public static func fit(_ text: some StringProtocol, width limit: Int) -> String {
        guard limit > 0 else { return "" }
        if width(of: text) <= limit { return String(text) }
        var out = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = width(of: scalar)
            if used + w > limit - 1 { break }
            out.append(scalar)
            used += w
        }
        return String(out) + "…"
    }

    /// `text` fitted to `width` columns, then padded with spaces to exactly `width` columns.
    public static func pad(_ text: some StringProtocol, width limit: Int) -> String {
        let fitted = fit(text, width: limit)
        return fitted + String(repeating: " ", count: max(0, limit - width(of: fitted)))
    }

    /// `text` fitted and centred in `width` columns (padding on both sides).
    public static func center(_ text: some StringProtocol, width limit: Int) -> String {
        let fitted = fit(text, width: limit)
        let spare = max(0, limit - width(of: fitted))
        return String(repeating: " ", count: spare / 2) + fitted + String(repeating: " ", count: spare - spare / 2)
    }
}
