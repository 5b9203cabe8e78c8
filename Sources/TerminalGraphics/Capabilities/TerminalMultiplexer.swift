/// The terminal multiplexer the program runs in, if any. Inside one, a query the multiplexer does not
/// understand must not be sent raw: tmux and GNU screen take an unknown APC (the kitty graphics query)
/// as the pane's title or hardstatus.
public enum TerminalMultiplexer: String, Sendable, Hashable {
    /// No multiplexer: queries go straight to the terminal.
    case none
    /// tmux (`TMUX` set, `TERM_PROGRAM=tmux`, or XTVERSION "tmux …").
    case tmux
    /// GNU screen (`STY` set).
    case screen
}

/// A tmux version as tmux spells it ("3.5a", "3.3a", "next-3.6"): major, minor, and the letter.
public struct TmuxVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Major version.
    public var major: Int
    /// Minor version.
    public var minor: Int
    /// The text it was read from, sanitized by the caller.
    public var text: String

    /// Reads "3.5a", "tmux 3.5a", "tmux next-3.6": nil when no `major.minor` is found.
    public init?(_ text: String) {
        let words = text.split(separator: " ")
        let word = words.first { $0.lowercased() != "tmux" } ?? ""
        let version = word.split(separator: "-").last ?? ""
        let parts = version.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let major = Int(parts[0]),
              let minor = Int(parts[1].prefix { $0.isASCII && $0.isNumber }) else { return nil }
        self.major = major
        self.minor = minor
        self.text = String(version.prefix(16))
    }

    /// Orders by (major, minor).
    public static func < (a: TmuxVersion, b: TmuxVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }

    /// Equal when major and minor are.
    public static func == (a: TmuxVersion, b: TmuxVersion) -> Bool { (a.major, a.minor) == (b.major, b.minor) }

    /// Hashes major and minor.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(major)
        hasher.combine(minor)
    }

    /// The first tmux that draws sixel itself (when built with it).
    public static let firstWithSixel = TmuxVersion(major: 3, minor: 4)

    init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
        text = "\(major).\(minor)"
    }

    /// "3.5a".
    public var description: String { text }
}
