import Foundation
import ImageCodecs
import TerminalGraphics

/// What the environment and `TIOCGWINSZ` say about the terminal, without writing a query. The full
/// probe (XTVERSION, DA1, kitty, CSI 16 t) is TerminalGraphics' and replaces this when wired.
public struct TerminalEnvironment: Sendable, Hashable {
    /// TERM.
    public var term: String?
    /// COLORTERM.
    public var colorTerm: String?
    /// TERM_PROGRAM.
    public var termProgram: String?
    /// Inside tmux.
    public var inTmux: Bool
    /// Columns of stdout's terminal, or $COLUMNS.
    public var columns: Int?
    /// Rows of stdout's terminal, or $LINES.
    public var rows: Int?
    /// Cell pixel size from TIOCGWINSZ when sane, else 8×16.
    public var cellPixels: PixelSize
    /// Whether the cell size came from the terminal.
    public var cellPixelsMeasured: Bool

    /// Reads the environment and stdout's window size.
    public static func current() -> TerminalEnvironment {
        let env = ProcessInfo.processInfo.environment
        let window = TerminalDevice.windowSize(1)
        let ok = window != nil
        let (cols, rows, xpixel, ypixel) = window ?? (0, 0, 0, 0)
        let measured = ok && xpixel >= 2 * cols && ypixel >= 4 * rows
        return TerminalEnvironment(
            term: env["TERM"], colorTerm: env["COLORTERM"], termProgram: env["TERM_PROGRAM"], inTmux: env["TMUX"] != nil,
            columns: ok ? cols : env["COLUMNS"].flatMap(Int.init), rows: ok ? rows : env["LINES"].flatMap(Int.init),
            cellPixels: measured ? PixelSize(width: xpixel / cols, height: ypixel / rows) : PixelSize(width: 8, height: 16),
            cellPixelsMeasured: measured)
    }

    /// The TerminalGraphics hints for these variables (the one set of detection rules).
    public var hints: EnvironmentHints {
        var env: [String: String] = [:]
        env["TERM"] = term
        env["COLORTERM"] = colorTerm
        env["TERM_PROGRAM"] = termProgram
        if inTmux { env["TMUX"] = "1" }
        return EnvironmentHints(environment: env)
    }

    /// Colour depth the environment suggests (`EnvironmentHints`; no colour counts as 16).
    public var colorDepth: ColorChoice {
        switch hints.colorDepth {
        case .truecolor: .truecolor
        case .color256: .palette256
        case .color16, .mono: .basic16
        }
    }

    /// Whether frames can be wrapped in synchronized output (mode 2026) without a probe.
    public var supportsSynchronizedOutput: Bool {
        let program = (termProgram ?? "").lowercased()
        let t = (term ?? "").lowercased()
        return ["wezterm", "kitty", "iterm.app", "vscode", "ghostty"].contains(program) || t.contains("kitty") || t.contains("foot") || t.contains("ghostty")
    }

}
