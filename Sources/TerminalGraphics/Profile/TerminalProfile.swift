import Foundation
import ImageCodecs

/// Everything the product decides about the terminal, decided once, here: capabilities (probe
/// replies + environment), the renderer and what it lacks inside tmux, the colour depth (piped, dumb
/// and mono rules), the cell size and where it came from (kept current on resize), and the
/// `TerminalStrategy`: how to scroll, erase and cover on it. The gallery and `--print` read it;
/// nothing else re-decides.
///
/// ```swift
/// var profile = TerminalProfile.detect(use: .gallery, renderer: .auto)   // probes the tty
/// let renderer = profile.makeRenderer()
/// if let query = profile.resized(to: WindowSize.read(1)!) { write(query) }  // after SIGWINCH
/// // … the reply comes back as input: profile.learn(ProbeReplyParser.parse(bytes))
/// ```
public struct TerminalProfile: Sendable {
    /// What the profile is for.
    public enum Use: Sendable, Hashable {
        /// The interactive gallery (curses on a terminal).
        case gallery
        /// The one-shot contact sheet (`--print`, or standard output not a terminal). `terminal`:
        /// standard output is a terminal curses could drive (so it was probed); `dumb`: TERM is dumb
        /// or unset.
        case sheet(terminal: Bool, dumb: Bool)
    }

    /// What the terminal can do (the probe's replies and the environment), with `--colors` applied.
    public internal(set) var capabilities: TerminalCapabilities
    /// The renderer, and why.
    public let renderer: RendererSelection
    /// The text colour depth; nil for plain text without any escape sequence (a sheet for TERM=dumb
    /// with nothing forced).
    public let colorDepth: ColorDepth?
    /// The pixel size of one cell (the probe's, re-measured after resizes; else 8×16).
    public internal(set) var cellPixelSize: PixelSize
    /// Where `cellPixelSize` came from.
    public internal(set) var cellSizeSource: CellSizeSource
    /// How to draw on this terminal with this renderer (scroll, erase, cover, synchronized output):
    /// the one value the gallery's screen, frame writer and runner ask.
    public let strategy: TerminalStrategy
    /// One line saying what the terminal (tmux) lacks when that forced a lesser renderer; nil when
    /// nothing is missing or output is not a terminal.
    public let limitation: String?
    /// The window as last read (`TIOCGWINSZ`).
    public internal(set) var window: WindowSize?

    /// The profile for `capabilities` (pure: tests pass canned capabilities). `renderer` and
    /// `colors` are the user's `--renderer` and `--colors`.
    public init(capabilities: TerminalCapabilities, use: Use = .gallery, renderer option: RendererOption = .auto,
                colors: ColorDepth? = nil, environment: [String: String] = [:], window: WindowSize? = nil) {
        let hints = EnvironmentHints(environment: environment)
        var caps = capabilities
        if let colors { caps.colorDepth = colors }
        var option = option
        var limitation: String?
        switch use {
        case .gallery:
            colorDepth = caps.colorDepth
            limitation = RendererSelection.choose(for: caps, option: option).limitation
        case .sheet(let terminal, let dumb):
            // A sheet always gets colour unless TERM=dumb asked for none and nothing was forced (plain
            // captions); a probe or environment that finds no colour still gets 16.
            let plain = dumb && colors == nil && option == .auto
            let depth: ColorDepth? = plain ? nil : (colors ?? (caps.colorDepth == .mono ? .color16 : caps.colorDepth))
            colorDepth = depth
            if terminal { limitation = RendererSelection.choose(for: caps, option: option).limitation }
            // Piped without a choice: text, like timg --grid; an explicit --renderer wins (like timg -p).
            if !terminal && option == .auto { option = depth == .mono ? .ascii : .halfBlock }
            if let depth { caps.colorDepth = depth }
        }
        self.limitation = limitation
        self.capabilities = caps
        let selection = RendererSelection.choose(for: caps, option: option)
        renderer = selection
        cellPixelSize = caps.effectiveCellPixelSize
        cellSizeSource = caps.cellSizeSource
        // A terminal that was asked says whether it takes mode 2026; without a probe, what its name promises.
        let synchronized = caps.probeStatus == .answered || caps.probeStatus == .timedOut
            ? caps.syncOutput : caps.syncOutput || hints.synchronizedOutput
        strategy = TerminalStrategy(selection: selection, capabilities: caps, synchronizedOutput: synchronized)
        self.window = window
    }

    /// Probes the terminal on `input`/`output` when `use` is the gallery or a sheet on a terminal
    /// (blocks at most `timeoutMilliseconds`), else reads the environment alone; then decides.
    public static func detect(use: Use = .gallery, renderer: RendererOption = .auto, colors: ColorDepth? = nil,
                              input: Int32 = 0, output: Int32 = 1,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              timeoutMilliseconds: Int = 250, queryBackground: Bool = true) -> TerminalProfile {
        let probes: Bool
        switch use {
        case .gallery: probes = true
        case .sheet(let terminal, _): probes = terminal
        }
        let caps = probes
            ? TerminalCapabilities.detect(input: input, output: output, environment: environment,
                                          timeoutMilliseconds: timeoutMilliseconds, queryBackground: queryBackground)
            : TerminalCapabilities.resolve(probe: ProbeResult(status: .notRun), environment: environment)
        return TerminalProfile(capabilities: caps, use: use, renderer: renderer, colors: colors, environment: environment,
                               window: WindowSize.read(output))
    }

    /// The terminal's background as it reported it (OSC 11), nil when it did not.
    public var background: RGBColor? { capabilities.backgroundColor }

    /// The renderer configured for this terminal: blended against the reported background; a sixel
    /// without a reported background leaves transparent pixels undrawn instead of guessing a colour.
    public func makeRenderer() -> any ImageRenderer {
        var renderer = self.renderer.makeRenderer(background: background ?? .black)
        if background == nil, var sixel = renderer as? SixelRenderer {
            sixel.keepsTransparency = true
            renderer = sixel
        }
        return renderer
    }
}
