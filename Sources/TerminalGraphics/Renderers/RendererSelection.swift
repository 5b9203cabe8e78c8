/// The renderer a user can force with `--renderer` (the raw values are the command-line words).
public enum RendererOption: String, Sendable, Hashable, CaseIterable {
    /// Pick from the probe.
    case auto
    /// DEC sixel.
    case sixel
    /// kitty graphics.
    case kitty
    /// Half blocks in the terminal's colour depth.
    case halfBlock = "blocks"
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

    /// Creates a selection.
    public init(kind: RendererKind, tmuxPassthrough: Bool, reason: String) {
        self.kind = kind
        self.tmuxPassthrough = tmuxPassthrough
        self.reason = reason
    }

    /// Chooses a renderer. Automatic: kitty, else sixel, else half blocks (ASCII on mono terminals).
    /// Inside tmux bitmaps are not chosen automatically (tmux < 3.4 drops raw sixel); a forced
    /// sixel or kitty is wrapped for passthrough.
    public static func choose(for caps: TerminalCapabilities, option: RendererOption = .auto) -> RendererSelection {
        let text: RendererKind = caps.colorDepth == .mono ? .ascii : .halfBlock(caps.colorDepth)
        switch option {
        case .sixel, .kitty:
            let kind: RendererKind = option == .sixel ? .sixel : .kitty
            if caps.inTmux {
                return RendererSelection(
                    kind: kind, tmuxPassthrough: true,
                    reason: "\(kind) forced inside tmux: wrapped for tmux passthrough (needs `set -g allow-passthrough on`)")
            }
            return RendererSelection(kind: kind, tmuxPassthrough: false, reason: "\(kind) forced by --renderer")
        case .halfBlock:
            return RendererSelection(
                kind: .halfBlock(caps.colorDepth == .mono ? .color16 : caps.colorDepth), tmuxPassthrough: false,
                reason: "half-block forced by --renderer")
        case .ascii:
            return RendererSelection(kind: .ascii, tmuxPassthrough: false, reason: "ascii forced by --renderer")
        case .auto:
            if caps.inTmux && caps.graphics == .kitty && caps.tmuxPassthrough {
                return RendererSelection(
                    kind: .kitty, tmuxPassthrough: true,
                    reason: "inside tmux: the outer terminal's kitty graphics through passthrough (cleared on every change and on quit)")
            }
            if caps.inTmux && caps.graphics != .none {
                return RendererSelection(
                    kind: text, tmuxPassthrough: false,
                    reason: "inside tmux: \(text) (for the outer terminal's \(caps.graphics) graphics: `set -g allow-passthrough on` in tmux)")
            }
            switch caps.graphics {
            case .kitty: return RendererSelection(kind: .kitty, tmuxPassthrough: false, reason: "terminal supports kitty graphics")
            case .sixel: return RendererSelection(kind: .sixel, tmuxPassthrough: false, reason: "terminal supports sixel")
            case .none: return RendererSelection(kind: text, tmuxPassthrough: false, reason: "no bitmap graphics: \(text)")
            }
        }
    }

    /// A renderer configured for this selection.
    public func makeRenderer(background: RGBColor = .black) -> any ImageRenderer {
        switch kind {
        case .sixel: SixelRenderer(background: background, tmuxPassthrough: tmuxPassthrough)
        case .kitty: KittyRenderer(background: background, tmuxPassthrough: tmuxPassthrough)
        case .halfBlock(let depth): HalfBlockRenderer(colorDepth: depth, background: background)
        case .ascii: AsciiRenderer(background: background)
        }
    }
}

extension RendererSelection {
    /// Whether a scrolled grid may be drawn by scrolling the terminal (a scroll region) and sending
    /// only the rows it exposed: the terminal must move this renderer's output with the text. Text
    /// kinds always move; kitty placements are placed again by id wherever they land (cheap, data
    /// stays), so kitty is safe; sixel pixels move in the terminals known to scroll them (xterm,
    /// mlterm, foot, WezTerm, contour). Nothing passed through tmux moves (tmux does not know it is
    /// there). `terminal` is the probed terminal name.
    public func scrollsWithText(terminal name: String?) -> Bool {
        switch kind {
        case .halfBlock, .ascii: return true
        case .kitty: return !tmuxPassthrough
        case .sixel:
            guard !tmuxPassthrough, let name = name?.lowercased() else { return false }
            return ["xterm", "mlterm", "foot", "wezterm", "contour"].contains { name.contains($0) }
        }
    }
}
