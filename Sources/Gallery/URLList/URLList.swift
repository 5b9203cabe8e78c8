import Foundation

/// A parsed list of images: one URL or path per line, an optional title after it.
///
/// Format: `#` starts a comment line; blank lines are ignored; the URL (or path) ends at the first
/// space or tab and the rest of the line, trimmed, is its title. `http`, `https` and `file` URLs and
/// local paths (absolute, `~/…`, or relative to the list's folder) are accepted. Bad lines become
/// `diagnostics` with their line numbers; the other lines still load.
///
/// ```swift
/// let list = URLList.parse("https://example.org/a.jpg  Sunset\n# comment\nphotos/b.png\n",
///                          baseDirectory: URL(fileURLWithPath: "/home/me"))
/// list.entries.count  // 2
/// ```
public struct URLList: Sendable, Hashable {
    /// Lines longer than this (in bytes) are rejected.
    public static let maximumLineLength = 16_384

    /// The usable entries, in file order.
    public var entries: [URLListEntry]
    /// One diagnostic per rejected line, in file order.
    public var diagnostics: [URLListDiagnostic]

    /// Creates a list.
    public init(entries: [URLListEntry] = [], diagnostics: [URLListDiagnostic] = []) {
        self.entries = entries
        self.diagnostics = diagnostics
    }

    /// Parses list text. Relative paths resolve against `baseDirectory` (the list file's folder; the
    /// working directory for standard input); `home` expands `~/`.
    public static func parse(_ text: String, baseDirectory: URL, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> URLList {
        var list = URLList()
        var number = 0
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        for rawLine in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            switch parseLine(rawLine, number: number, baseDirectory: baseDirectory, home: home) {
            case nil: continue
            case .success(let entry)?: list.entries.append(entry)
            case .failure(let diagnostic)?: list.diagnostics.append(diagnostic)
            }
        }
        return list
    }

    /// Parses one line (without its newline): nil for a blank or comment line, else the entry or
    /// why the line cannot be used. The one line parser: `parse` and `URLListIndex` both use it.
    static func parseLine(_ rawLine: Substring, number: Int, baseDirectory: URL, home: String?) -> Result<URLListEntry, URLListDiagnostic>? {
        var line = rawLine
        if line.hasSuffix("\r") { line = line.dropLast() }
        if line.utf8.count > maximumLineLength {
            return .failure(URLListDiagnostic(line: number, problem: .lineTooLong(line.utf8.count), text: line.prefix(80)))
        }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let token = trimmed.prefix { $0 != " " && $0 != "\t" }
        let rest = trimmed.dropFirst(token.count)
        let title = TerminalText.sanitize(rest).trimmingCharacters(in: .whitespaces)
        switch parseLocation(String(token), baseDirectory: baseDirectory, home: home) {
        case .success(let location):
            return .success(URLListEntry(line: number, location: location, title: title.isEmpty ? nil : title))
        case .failure(let problem):
            return .failure(URLListDiagnostic(line: number, problem: problem, text: token))
        }
    }

    /// Parses one URL or path.
    static func parseLocation(_ token: String, baseDirectory: URL, home: String?) -> Result<ImageLocation, URLListDiagnostic.Problem> {
        if token.unicodeScalars.contains(where: TerminalText.isUnsafe) { return .failure(.controlCharacters) }
        if token.hasPrefix("/") { return .success(.file(path: normalized(token))) }
        if token == "~" || token.hasPrefix("~/") {
            guard let home, !home.isEmpty else { return .failure(.malformedURL) }
            return .success(.file(path: normalized(home + token.dropFirst())))
        }
        if let scheme = schemePrefix(of: token) {
            switch scheme.lowercased() {
            case "http", "https":
                guard let url = makeURL(token), let host = url.host, !host.isEmpty else { return .failure(.malformedURL) }
                return .success(.remote(url))
            case "file":
                guard let url = makeURL(token) else { return .failure(.malformedURL) }
                if let host = url.host, !host.isEmpty, host != "localhost" { return .failure(.remoteFileURL(host: host)) }
                let path = url.path
                guard path.hasPrefix("/") else { return .failure(.malformedURL) }
                return .success(.file(path: normalized(path)))
            default:
                return .failure(.unsupportedScheme(scheme))
            }
        }
        return .success(.file(path: normalized(baseDirectory.appendingPathComponent(token).path)))
    }

    /// The scheme of `token` when it starts like `letters:` (RFC 3986 scheme characters), else nil.
    static func schemePrefix(of token: String) -> String? {
        guard let colon = token.firstIndex(of: ":") else { return nil }
        let scheme = token[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return String(scheme)
    }

    /// `URL(string:)`, retried with non-ASCII characters percent-encoded (IRIs).
    static func makeURL(_ token: String) -> URL? {
        if let url = URL(string: token) { return url }
        var encoded = ""
        for byte in token.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "\\")
                || byte == UInt8(ascii: "^") {
                encoded += String(format: "%%%02X", byte)
            } else {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return URL(string: encoded)
    }

    /// Removes `.` and `..` components and duplicate slashes from an absolute path.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
