import Foundation
import SafeFiles

/// The password a netrc file gives a user on a host (`machine HOST login USER password PW`, or the
/// `default` entry), read by the downloader itself for `--user U --netrc`: libcurl, given a user
/// name, sent an empty password instead of looking it up.
///
/// ```swift
/// NetrcFile.password(forUser: "alice", host: "example.com", file: "")   // from ~/.netrc
/// ```
enum NetrcFile {
    /// The password for `user` on `host` in `file` ("" for `~/.netrc`); nil when none is given.
    static func password(forUser user: String, host: String, file: String) -> String? {
        let path = file.isEmpty ? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + "/.netrc" : file
        // A regular file of at most 1 MB, opened without blocking (a FIFO blocked here).
        guard case .success(let bytes) = SafeFile.contents(of: path, limit: 1 << 20) else { return nil }
        return password(forUser: user, host: host, in: String(decoding: bytes, as: UTF8.self))
    }

    /// The password for `user` on `host` in netrc `text` (the first matching entry: `machine HOST`,
    /// else `default`, whose `login` is `user` or absent).
    static func password(forUser user: String, host: String, in text: String) -> String? {
        let tokens = Self.tokens(text)
        var entries: [(machine: String?, login: String?, password: String?)] = []
        var index = 0
        while index < tokens.count {
            switch tokens[index] {
            case "machine" where index + 1 < tokens.count:
                entries.append((tokens[index + 1], nil, nil)); index += 2
            case "default":
                entries.append((nil, nil, nil)); index += 1
            case "login" where index + 1 < tokens.count && !entries.isEmpty:
                entries[entries.count - 1].login = tokens[index + 1]; index += 2
            case "password" where index + 1 < tokens.count && !entries.isEmpty:
                entries[entries.count - 1].password = tokens[index + 1]; index += 2
            default:
                index += 1
            }
        }
        let usable = entries.filter { ($0.login == nil || $0.login == user) && $0.password != nil }
        let match = usable.first { $0.machine?.lowercased() == host.lowercased() } ?? usable.first { $0.machine == nil }
        return match?.password
    }

    /// The tokens of netrc `text`, as curl reads them: separated by blanks; a token in double
    /// quotes may hold blanks and the escapes `\"`, `\\`, `\n`, `\r`, `\t`; a line whose first
    /// non-blank is `#` is a comment; `macdef NAME` and the lines after it up to an empty line are
    /// a macro, not entries.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var inMacro = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if inMacro {
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { inMacro = false }
                continue
            }
            var rest = line.drop(while: { $0 == " " || $0 == "\t" })
            if rest.first == "#" { continue }
            var lineTokens: [String] = []
            while let first = rest.first {
                if first == " " || first == "\t" { rest = rest.dropFirst(); continue }
                var token = ""
                if first == "\"" {
                    rest = rest.dropFirst()
                    while let c = rest.first, c != "\"" {
                        rest = rest.dropFirst()
                        guard c == "\\", let escaped = rest.first else { token.append(c); continue }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "n": token.append("\n")
                        case "r": token.append("\r")
                        case "t": token.append("\t")
                        default: token.append(escaped)
                        }
                    }
                    rest = rest.dropFirst()  // the closing quote
                } else {
                    while let c = rest.first, c != " ", c != "\t" { token.append(c); rest = rest.dropFirst() }
                }
                lineTokens.append(token)
            }
            if let macro = lineTokens.firstIndex(of: "macdef") {
                tokens += lineTokens[..<macro]
                inMacro = true
            } else {
                tokens += lineTokens
            }
        }
        return tokens
    }
}
