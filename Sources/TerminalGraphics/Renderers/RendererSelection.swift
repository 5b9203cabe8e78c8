import ImageCodecs

/// The renderer a user can force with `--renderer` (the raw values are the command-line words).
public enum RendererOption: String, Sendable, Hashable, CaseIterable {
    /// Pick from the probe.
    case auto
    /// DEC sixel.
    case sixel
    /// kitty graphics (inside tmux: Unicode placeholders where the outer terminal draws them).
    case kitty
    /// kitty graphics by Unicode placeholders, even outside tmux (kitty ≥ 0.28, Ghostty).
    case kittyPlaceholders = "kitty-placeholders"
    /// iTerm2 inline images (OSC 1337).
    case iterm2
    /// Half blocks in the terminal's colour depth.
    case halfBlock = "blocks"
    /// 2×2 quadrant blocks, two colours per cell.
    case quadrants
    /// 2×3 sextant blocks (Unicode 13), two colours per cell.
    case sextants
    /// ASCII ramp.
    case ascii
}

/// Which renderer to use for a terminal, and why.
public struct RendererSelection: Sendable, Hashable {
    /// The chosen renderer.
    public var kind: RendererKind
    /// Whether bitmap output is wrapped for tmux passthrough.
    public var tmuxPassthrough: Bool
    /// One line explaining the choice (for `--probe`).
    public var reason: String
    /// One line saying what the terminal (tmux) lacks when that forced a lesser renderer than the
    /// outer terminal could show: the gallery's status bar and `--print`'s standard error show it.
    public var limitation: String?
    /// The largest bitmap the terminal shows (XTSMGRAPHICS); sixel output is scaled to fit it.
    public var graphicsLimit: PixelSize?
    /// Whether sixel heights are kept to whole bands (tmux draws the sixel: see `SixelRenderer.wholeBands`).
    public var wholeBands = false

    /// Creates a selection.
    public init(kind: RendererKind, tmuxPassthrough: Bool, reason: String, limitation: String? = nil) {
        self.kind = kind
        self.tmuxPassthrough = tmuxPassthrough
        self.reason = reason
        self.limitation = limitation
    }

    /// Chooses a renderer. Automatic: kitty, else sixel, else half blocks (ASCII on mono terminals).
    /// Inside tmux see `chooseInTmux`.
    public static func choose(for caps: TerminalCapabilities, option: RendererOption = .auto) -> RendererSelection {
        var selection = chooseKind(for: caps, option: option)
        if selection.kind == .sixel {
            selection.graphicsLimit = caps.graphicsLimit
            selection.wholeBands = caps.tmuxSixel && !selection.tmuxPassthrough
        }
        return selection
    }

    static func chooseKind(for caps: TerminalCapabilities, option: RendererOption) -> RendererSelection {
        let text = textKind(for: caps)
        if caps.inTmux, option == .auto || option == .sixel || option == .kitty || option == .iterm2 || option == .kittyPlaceholders {
            return chooseInTmux(caps, option: option, text: text)
        }
        switch option {
        case .kittyPlaceholders:
            return RendererSelection(kind: .kittyPlaceholders, tmuxPassthrough: false,
                                     reason: "kitty Unicode placeholders forced by --renderer"
                                        + (caps.kittyPlaceholders ? "" : " (the terminal did not name itself as kitty 0.28+ or Ghostty)"))
        case .sixel, .kitty, .iterm2:
            let kind: RendererKind = option == .sixel ? .sixel : option == .kitty ? .kitty : .iterm2
            return RendererSelection(kind: kind, tmuxPassthrough: false, reason: "\(kind) forced by --renderer")
        case .halfBlock, .quadrants, .sextants:
            let depth = caps.colorDepth == .mono ? ColorDepth.color16 : caps.colorDepth
            let kind: RendererKind = option == .halfBlock ? .halfBlock(depth) : option == .quadrants ? .quadrant(depth) : .sextant(depth)
            return RendererSelection(kind: kind, tmuxPassthrough: false, reason: "\(kind) forced by --renderer")
        case .ascii:
            return RendererSelection(kind: .ascii, tmuxPassthrough: false, reason: "ascii forced by --renderer")
        case .auto:
            switch caps.graphics {
            case .kitty: return RendererSelection(kind: .kitty, tmuxPassthrough: false, reason: "terminal supports kitty graphics")
            case .sixel: return RendererSelection(kind: .sixel, tmuxPassthrough: false, reason: "terminal supports sixel")
            case .iterm2: return RendererSelection(kind: .iterm2, tmuxPassthrough: false, reason: "terminal known to show iTerm2 inline images")
            case .none: return RendererSelection(kind: text, tmuxPassthrough: false, reason: "no bitmap graphics: \(text)")
            }
        }
    }

    /// The text renderer for the terminal's colour depth (ASCII on mono terminals).
    static func textKind(for caps: TerminalCapabilities) -> RendererKind {
        caps.colorDepth == .mono ? .ascii : .halfBlock(caps.colorDepth)
    }

    /// A renderer configured for this selection.
    public func makeRenderer(background: RGBColor = .black) -> any ImageRenderer {
        switch kind {
        case .sixel: {
            var sixel = SixelRenderer(background: background, tmuxPassthrough: tmuxPassthrough, graphicsLimit: graphicsLimit)
            sixel.wholeBands = wholeBands
            return sixel
        }()
        case .kitty: KittyRenderer(background: background, tmuxPassthrough: tmuxPassthrough)
        case .kittyPlaceholders: {
            var kitty = KittyRenderer(background: background, tmuxPassthrough: tmuxPassthrough)
            kitty.placeholders = true
            return kitty
        }()
        case .iterm2: ITermRenderer(background: background)
        case .halfBlock(let depth): HalfBlockRenderer(colorDepth: depth, background: background)
        case .quadrant(let depth): MosaicRenderer(layout: .quadrants, colorDepth: depth, background: background)
        case .sextant(let depth): MosaicRenderer(layout: .sextants, colorDepth: depth, background: background)
        case .ascii: AsciiRenderer(background: background)
        }
    }
}

extension RendererSelection {
    /// Whether a scrolled grid may be drawn by scrolling the terminal (a scroll region) and sending
    /// only the rows it exposed: the terminal must move this renderer's output with the text. Text
    /// kinds always move, kitty's Unicode placeholders too (they are text); kitty placements are placed again by id wherever they land (cheap, data
    /// stays), so kitty is safe; sixel pixels move in the terminals known to scroll them (xterm,
    /// mlterm, foot, WezTerm, contour). Nothing passed through tmux moves (tmux does not know it is
    /// there). `terminal` is the probed terminal name.
    public func scrollsWithText(terminal name: String?) -> Bool {
        switch kind {
        case .halfBlock, .quadrant, .sextant, .ascii, .kittyPlaceholders: return true
        case .kitty: return !tmuxPassthrough
        case .iterm2: return false
        case .sixel:
            guard !tmuxPassthrough, let name = name?.lowercased() else { return false }
            return ["xterm", "mlterm", "foot", "wezterm", "contour"].contains { name.contains($0) }
        }
    }
}
