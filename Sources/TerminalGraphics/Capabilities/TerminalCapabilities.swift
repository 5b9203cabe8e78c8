import SafeText
import ImageCodecs

/// The bitmap graphics protocol a terminal understands.
public enum GraphicsProtocol: String, Sendable, Hashable, CaseIterable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// DEC sixel graphics (xterm -ti vt340, mlterm, foot, WezTerm, iTerm2…).
    case sixel
    /// iTerm2 inline images (OSC 1337): chosen only for a terminal known by name (iTerm2, WezTerm,
    /// mintty), never sent blind (kitty and zutty print it as text).
    case iterm2
    /// No bitmap graphics: text renderers only.
    case none
}

/// How many colours the terminal can show in text.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour (`CSI 38;2;r;g;b m`).
    case truecolor
    /// The xterm 256-colour palette (`CSI 38;5;n m`).
    case color256 = "256"
    /// The 16 ANSI colours.
    case color16 = "16"
    /// No colour.
    case mono
}

/// An opaque 8-bit RGB colour.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    public var r: UInt8
    /// Green, 0…255.
    public var g: UInt8
    /// Blue, 0…255.
    public var b: UInt8

    /// Creates a colour.
    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Black, the background assumed when the terminal does not say.
    public static let black = RGBColor(r: 0, g: 0, b: 0)

    /// Relative luminance 0…1 (Rec. 709 weights on the encoded values; good enough for ramps).
    public var luminance: Double { (0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)) / 255 }

    /// "#rrggbb".
    public var description: String {
        func hex(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + hex(r) + hex(g) + hex(b)
    }
}

/// What the terminal can do, from a probe and/or environment hints. The product reads it through
/// `TerminalProfile`, which makes every decision from it once.
///
/// ```swift
/// let caps = TerminalCapabilities.detect()          // probes stdin/stdout when they are a tty
/// print(caps.description)                           // what `sdgallery --probe` prints
/// let profile = TerminalProfile(capabilities: caps) // renderer, cell size, scrolling rules
/// ```
public struct TerminalCapabilities: Sendable, Hashable {
    /// Best bitmap protocol the terminal supports.
    public var graphics: GraphicsProtocol
    /// Text colour depth.
    public var colorDepth: ColorDepth
    /// Pixel size of one character cell, when known.
    public var cellPixelSize: PixelSize?
    /// Where `cellPixelSize` came from.
    public var cellSizeSource = CellSizeSource.assumed
    /// The terminal's name (XTVERSION reply or TERM_PROGRAM/TERM), sanitized.
    public var terminalName: String?
    /// Whether we run inside tmux.
    public var inTmux: Bool
    /// Inside tmux: the outer terminal answered through passthrough (`allow-passthrough` is on), so
    /// its graphics can be used wrapped.
    public var tmuxPassthrough = false
    /// Inside tmux: its version (XTVERSION, else `TERM_PROGRAM_VERSION`).
    public var tmuxVersion: TmuxVersion?
    /// Inside tmux: tmux draws sixel itself (tmux ≥ 3.4 built with sixel: its DA1 lists 4) *and* the
    /// outer terminal draws sixel (tmux's `client_termfeatures` has `sixel`): elsewhere tmux draws a
    /// "SIXEL IMAGE" text box instead. Sixel is then sent raw, not wrapped for passthrough.
    public var tmuxSixel = false
    /// Inside tmux: what tmux said of the client showing the pane (`TmuxClient`: passthrough, the
    /// outer terminal's features and XTVERSION), when it was asked.
    public var tmuxClient: TmuxClient?
    /// Whether the terminal that draws the pictures (the outer one inside tmux) draws kitty's
    /// Unicode placeholders (`KittyPlaceholders.supported`: kitty ≥ 0.28, Ghostty), by its XTVERSION.
    public var kittyPlaceholders = false
    /// The largest sixel bitmap the terminal shows (XTSMGRAPHICS), when it said.
    public var graphicsLimit: PixelSize?
    /// How long the probe waited for replies, in milliseconds (0 when it did not run).
    public var probeMilliseconds = 0
    /// Whether the terminal supports synchronized output (mode 2026).
    public var syncOutput: Bool
    /// The terminal's background colour (OSC 11), when it answered.
    public var backgroundColor: RGBColor?
    /// Where each fact came from, for `--probe` (e.g. "graphics": "DA1").
    public var sources: [String: String]
    /// Whether a probe was written to the terminal, and how it ended.
    public var probeStatus: ProbeStatus

    /// Creates capabilities.
    public init(
        graphics: GraphicsProtocol = .none, colorDepth: ColorDepth = .color16,
        cellPixelSize: PixelSize? = nil, terminalName: String? = nil, inTmux: Bool = false,
        syncOutput: Bool = false, backgroundColor: RGBColor? = nil, sources: [String: String] = [:],
        probeStatus: ProbeStatus = .notRun
    ) {
        self.graphics = graphics
        self.colorDepth = colorDepth
        self.cellPixelSize = cellPixelSize
        self.terminalName = terminalName.map { UntrustedText.strip($0) }
        self.inTmux = inTmux
        self.syncOutput = syncOutput
        self.backgroundColor = backgroundColor
        self.sources = sources
        self.probeStatus = probeStatus
    }

    /// The cell size to lay images out with: the known one, else a common 8×16.
    public var effectiveCellPixelSize: PixelSize { cellPixelSize ?? .fallbackCell }

    /// The background to blend transparent pixels against: the queried one, else black.
    public var effectiveBackground: RGBColor { backgroundColor ?? .black }
}

/// How the tty probe went.
public enum ProbeStatus: String, Sendable, Hashable {
    /// No probe was attempted (caller did not ask).
    case notRun = "not run"
    /// Not probed: stdin or stdout is not a terminal.
    case notATerminal = "skipped: not a terminal"
    /// Not probed: the process is in the background process group.
    case background = "skipped: background process"
    /// The terminal answered DA1 (the sentinel).
    case answered
    /// The deadline passed before the DA1 reply.
    case timedOut = "timed out"
    /// A system call failed (termios, write, poll).
    case failed
}
