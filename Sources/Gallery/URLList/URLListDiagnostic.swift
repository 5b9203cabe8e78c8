/// A line of a list that could not be used. The rest of the list still loads.
public struct URLListDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a line was rejected.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// A URL with a scheme other than http, https or file (e.g. `ftp`, `javascript`).
        case unsupportedScheme(String)
        /// Text that does not parse as a URL (or an http(s) URL without a host).
        case malformedURL
        /// The URL contains control characters or whitespace that cannot be part of it.
        case controlCharacters
        /// The line is longer than `URLList.maximumLineLength`.
        case lineTooLong(Int)
        /// A `file://` URL naming another host.
        case remoteFileURL(host: String)

        /// "unsupported scheme 'ftp'".
        public var description: String {
            switch self {
            case .unsupportedScheme(let scheme): "unsupported scheme '\(TerminalText.sanitize(scheme))'"
            case .malformedURL: "not a valid URL or path"
            case .controlCharacters: "control characters in URL"
            case .lineTooLong(let n): "line too long (\(n) bytes)"
            case .remoteFileURL(let host): "file URL on another host '\(TerminalText.sanitize(host))'"
            }
        }
    }

    /// 1-based line number.
    public var line: Int
    /// What went wrong.
    public var problem: Problem
    /// The offending text, sanitized and cut to 80 columns (safe to print).
    public var text: String

    /// Creates a diagnostic; `text` is sanitized, its passwords redacted and shortened here (a
    /// rejected `ftp://user:secret@host/` printed its password on standard error and in its cell).
    public init(line: Int, problem: Problem, text: some StringProtocol) {
        self.line = line
        self.problem = problem
        self.text = TerminalText.fit(TerminalText.sanitize(Self.redactingPasswords(String(text))), width: 80)
    }

    /// `text` with the password of every `scheme://user:password@` in it shown as `***`.
    static func redactingPasswords(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            out += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { "/?# \t".contains($0) } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                out += authority[...colon] + "***"
                rest = rest[at...]
            }
        }
        return out + rest
    }

    /// "line 3: unsupported scheme 'ftp': ftp://x/y".
    public var description: String { "line \(line): \(problem): \(text)" }
}
