import SafeText
import ImageCodecs

/// Capability hints read from environment variables (`COLORTERM`, `TERM`, `TERM_PROGRAM`, `TMUX`,
/// `KITTY_WINDOW_ID`); used where the terminal did not answer the probe. The one set of these rules:
/// every caller asks this type. An unknown TERM gets 16 colours (sequences it
/// surely understands), never an assumed 24-bit colour.
public struct EnvironmentHints: Sendable, Hashable {
    /// Colour depth the variables suggest.
    public var colorDepth: ColorDepth
    /// Graphics protocol the variables suggest (none when unknown).
    public var graphics: GraphicsProtocol
    /// Terminal name from `TERM_PROGRAM` (or `TERM`), sanitized.
    public var terminalName: String?
    /// Whether `TMUX` is set (or TERM says tmux/screen under TMUX).
    public var inTmux: Bool
    /// Whether the terminal is known to take synchronized output (mode 2026) without being asked.
    public var synchronizedOutput: Bool
    /// Inside tmux: its version from `TERM_PROGRAM_VERSION` (tmux ≥ 3.2 sets it).
    public var tmuxVersion: TmuxVersion?
    /// Whether `STY` is set (GNU screen) and we are not in a tmux inside it.
    public var inScreen: Bool
    /// The cell size of a terminal known by name whose cells are fixed and that may not say
    /// (Windows Terminal: `WT_SESSION`, 10×20 virtual pixels per cell), with the terminal's name.
    public var knownCellPixelSize: (size: PixelSize, terminal: String)? {
        guard windowsTerminal else { return nil }
        return (PixelSize(width: 10, height: 20), "Windows Terminal (WT_SESSION)")
    }
    /// Whether `WT_SESSION` is set (Windows Terminal).
    var windowsTerminal: Bool

    /// The multiplexer we run in (tmux wins when both are set: a tmux started inside screen).
    public var multiplexer: TerminalMultiplexer { inTmux ? .tmux : inScreen ? .screen : .none }

    /// Reads hints from an environment dictionary (pass `ProcessInfo.processInfo.environment`).
    public init(environment env: [String: String]) {
        let term = (env["TERM"] ?? "").lowercased()
        let program = (env["TERM_PROGRAM"] ?? "").lowercased()
        let colorterm = (env["COLORTERM"] ?? "").lowercased()
        inTmux = !(env["TMUX"] ?? "").isEmpty || program == "tmux"
        inScreen = !(env["STY"] ?? "").isEmpty
        windowsTerminal = !(env["WT_SESSION"] ?? "").isEmpty
        tmuxVersion = program == "tmux" ? env["TERM_PROGRAM_VERSION"].flatMap { TmuxVersion(UntrustedText.strip($0)) } : nil

        if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct")
            || ["wezterm", "iterm.app", "ghostty", "vscode"].contains(program) || term == "xterm-kitty"
            || term == "foot" || term.hasPrefix("foot-") {
            colorDepth = .truecolor
        } else if term.contains("256color") || term == "xterm" {
            // Plain TERM=xterm: xterm itself (and every terminal that claims to be it) has the
            // 256-colour palette even though that terminfo entry lists 8 colours.
            colorDepth = .color256
        } else if term.isEmpty || term == "dumb" {
            colorDepth = .mono
        } else {
            colorDepth = .color16
        }

        if !(env["KITTY_WINDOW_ID"] ?? "").isEmpty || term == "xterm-kitty"
            || program == "ghostty" || term == "xterm-ghostty" {
            graphics = .kitty
        } else if ["wezterm", "iterm.app", "mintty"].contains(program) {
            // Known by name to show iTerm2 images (WezTerm's kitty graphics are what chafa and timg
            // stopped using).
            graphics = .iterm2
        } else if term.hasPrefix("mlterm") || term == "foot" || term.hasPrefix("foot-") || term.contains("sixel")
            || term == "yaft-256color" {
            graphics = .sixel
        } else {
            graphics = .none
        }

        synchronizedOutput = ["wezterm", "kitty", "iterm.app", "vscode", "ghostty"].contains(program)
            || term.contains("kitty") || term.contains("foot") || term.contains("ghostty")

        let name = env["TERM_PROGRAM"].flatMap { $0.isEmpty ? nil : $0 } ?? env["TERM"]
        terminalName = name.map { UntrustedText.strip($0) }.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) }
    }
}
