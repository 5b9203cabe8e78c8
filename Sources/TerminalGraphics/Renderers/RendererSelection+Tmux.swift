extension RendererSelection {
    /// Inside tmux. tmux ≥ 3.4 built with sixel (its DA1 lists 4) draws sixel itself, in the pane, and
    /// moves and clears it like text: sixel goes raw. An older tmux drops raw sixel: a forced sixel is
    /// wrapped for passthrough (needs `allow-passthrough on`; tmux does not know it is there), the
    /// automatic choice is text. kitty graphics through passthrough land where the outer terminal's
    /// cursor is, not in tmux's pane (images stack at the pane's top-left over text): exact placement
    /// would need kitty's Unicode placeholders (kitty ≥ 0.28, Ghostty), which this renderer does not
    /// write, so there is no kitty in tmux, forced or not. `limitation` says what tmux lacks whenever
    /// the outer terminal could show more.
    static func chooseInTmux(_ caps: TerminalCapabilities, option: RendererOption, text: RendererKind) -> RendererSelection {
        let tmux = "tmux" + (caps.tmuxVersion.map { " \($0)" } ?? "")
        if caps.tmuxSixel && option != .kitty && option != .iterm2 {
            return RendererSelection(
                kind: .sixel, tmuxPassthrough: false,
                reason: "\(tmux) draws sixel itself\(option == .sixel ? " (forced by --renderer)" : "")")
        }
        if option == .sixel {
            return RendererSelection(
                kind: .sixel, tmuxPassthrough: true,
                reason: "sixel forced inside \(tmux): wrapped for tmux passthrough (needs `set -g allow-passthrough on`)")
        }
        let kittyLack = "inside \(tmux): \(text); kitty images through passthrough would be misplaced"
        let itermLack = "inside \(tmux): \(text); iTerm2 images through passthrough would be misplaced"
        if option == .kitty || option == .iterm2 {
            let lack = option == .kitty ? kittyLack : itermLack
            return RendererSelection(kind: text, tmuxPassthrough: false, reason: lack, limitation: lack)
        }
        switch caps.graphics {
        case .kitty, .iterm2:
            let lack = caps.graphics == .kitty ? kittyLack : itermLack
            return RendererSelection(kind: text, tmuxPassthrough: false, reason: lack, limitation: lack)
        case .sixel:
            let lack = "inside \(tmux): \(text); tmux draws no sixel before 3.4 (built with sixel)"
            return RendererSelection(kind: text, tmuxPassthrough: false, reason: lack, limitation: lack)
        case .none:
            return RendererSelection(kind: text, tmuxPassthrough: false, reason: "inside \(tmux), no bitmap graphics: \(text)")
        }
    }
}
