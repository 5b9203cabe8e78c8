import Foundation
import ImageCodecs

/// Everything the product decides about the terminal, decided once, here: capabilities (probe
/// replies + environment), the renderer and what it lacks inside tmux, the colour depth (piped, dumb
/// and mono rules), the cell size and where it came from (kept current on resize), synchronized
/// output, and whether the terminal moves images with scrolled text. The gallery and `--print`
/// read it; nothing else re-decides.
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
    /// Whether frames are wrapped in synchronized output (mode 2026).
    public let synchronizedOutput: Bool
    /// Whether the terminal moves this renderer's output with text in a scroll region
    /// (`RendererSelection.scrollsWithText`): then a scrolled grid costs only its exposed rows.
    public let scrollsWithText: Bool
    /// Whether it does so for a scroll down too (`RendererSelection.scrollsBackWithText`).
    public let scrollsBackWithText: Bool
    /// Whether text leaves the images on the rest of its row alone (`RendererSelection.textOverwritesOnlyItsCells`).
    public let textOverwritesOnlyItsCells: Bool
    /// One line saying what the terminal (tmux) lacks when that forced a lesser renderer; nil when
    /// nothing is missing or output is not a terminal.
    public let limitation: String?
    /// Whether the terminal keeps this renderer's sixel or iTerm2 images as placements that text does
    /// not erase, to be deleted with kitty's delete by cell: a terminal that answered the kitty
    /// graphics query (Konsole: a forced sixel left strips of replaced images; kitty's delete removes
    /// them). Never sent to a terminal that did not answer.
    public let deletesBitmapsByCell: Bool
    /// Whether tmux draws this renderer's images itself (`TmuxImages`): it keeps each one until text
    /// covers its cells, and only a few at a time.
    public let tmuxImages: TmuxImages?
    /// Whether `ECH` (erase characters) over double-width characters erases the columns it names.
    /// Not in mlterm (3.9): a grid → list switch left "4 Gamma 5" and "□ 1" of old captions beside
    /// "ＦＵＬＬＷＩＤＴＨ" until Ctrl-L (1,003 px; the bytes: ncurses' `CSI 28 X` over the caption);
    /// there curses gets no `ech` and writes spaces (0 px over the same keys).
    public let erasesWideCharactersByColumn: Bool
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
        synchronizedOutput = caps.probeStatus == .answered || caps.probeStatus == .timedOut
            ? caps.syncOutput : caps.syncOutput || hints.synchronizedOutput
        scrollsWithText = selection.scrollsWithText(terminal: caps.terminalName)
        scrollsBackWithText = selection.scrollsBackWithText(terminal: caps.terminalName)
        textOverwritesOnlyItsCells = selection.textOverwritesOnlyItsCells(terminal: caps.terminalName)
        tmuxImages = TmuxImages(selection: selection, capabilities: caps)
        deletesBitmapsByCell = caps.graphics == .kitty && !caps.inTmux && (selection.kind == .sixel || selection.kind == .iterm2)
        erasesWideCharactersByColumn = caps.inTmux || !(caps.terminalName?.lowercased().contains("mlterm") ?? false)
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
