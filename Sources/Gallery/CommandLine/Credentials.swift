import Foundation

/// Where the basic-auth password comes from, so it need not be on the command line (where every
/// user sees it in `ps`): `--password` (kept, with a warning), else `SDGALLERY_PASSWORD`, else a
/// netrc file (libcurl reads it; `--netrc`), else a prompt on the terminal (echo off, before the
/// gallery takes the terminal).
public enum Credentials {
    /// The resolved password (nil: none needed, or libcurl takes it from netrc), warnings to print,
    /// or the one-line error when `--user` has no password anywhere.
    public struct Resolution: Sendable, Equatable {
        public var password: String?
        public var warnings: [String] = []
        public var error: String?
    }

    /// Resolves the password for `user`. `prompt` asks on the terminal (nil when there is none).
    public static func resolve(user: String?, password: String?, environment: [String: String], netrc: Bool,
                               prompt: ((String) -> String?)?) -> Resolution {
        var result = Resolution()
        if password != nil {
            result.warnings.append("--password is visible to every user of this machine (ps); prefer SDGALLERY_PASSWORD, --netrc or the prompt")
        }
        guard let user else {
            if password != nil { result.error = "--password needs --user" }
            return result
        }
        if let password { result.password = password; return result }
        if let password = environment["SDGALLERY_PASSWORD"] { result.password = password; return result }
        if netrc { return result }  // libcurl finds the password for this user in the netrc file
        if let prompt, let typed = prompt("Password for \(TerminalText.sanitize(user)): ") {
            result.password = typed
            return result
        }
        result.error = "--user needs a password: set SDGALLERY_PASSWORD, use --netrc, or run on a terminal to be asked"
        return result
    }

    /// Asks on the controlling terminal with echo off (`getpass`); nil without a terminal.
    public static func terminalPrompt(_ text: String) -> String? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)  // fails without a controlling terminal
        guard tty >= 0 else { return nil }
        close(tty)
        guard let typed = getpass(text) else { return nil }
        return String(cString: typed)
    }
}
