extension RendererSelection {
    /// Inside tmux, in this order:
    /// - tmux ≥ 3.4 built with sixel (its DA1 lists 4) draws sixel itself, in the pane, and moves and
    ///   clears it like text — but only where the outer terminal draws sixel (`client_termfeatures`);
    ///   elsewhere it draws "SIXEL IMAGE" text boxes, so `tmuxSixel` holds only when both do: sixel
    ///   goes raw.
    /// - A forced sixel otherwise is wrapped for passthrough (needs `allow-passthrough on`; tmux does
    ///   not know it is there).
    /// - An outer terminal that speaks kitty graphics (its reply came through passthrough) and draws
    ///   Unicode placeholders (kitty ≥ 0.28, Ghostty) gets `kittyPlaceholders`: uploads through
    ///   passthrough, the pictures as text that tmux keeps, scrolls and clips. A direct kitty
    ///   placement through passthrough lands at the outer terminal's cursor, not in the pane (images
    ///   stack at the pane's top-left over text), so older kitty gets text.
    /// - Otherwise text. `limitation` says what is missing whenever the outer terminal could show more.
    static func chooseInTmux(_ caps: TerminalCapabilities, option: RendererOption, text: RendererKind) -> RendererSelection {
        let tmux = "tmux" + (caps.tmuxVersion.map { " \($0)" } ?? "")
        if caps.tmuxSixel && option != .kitty && option != .iterm2 && option != .kittyPlaceholders {
            return RendererSelection(
                kind: .sixel, tmuxPassthrough: false,
                reason: "\(tmux) draws sixel itself\(option == .sixel ? " (forced by --renderer)" : "")")
        }
        if option == .sixel {
            return RendererSelection(
                kind: .sixel, tmuxPassthrough: true,
                reason: "sixel forced inside \(tmux): wrapped for tmux passthrough (needs `set -g allow-passthrough on`)")
        }
        let outer = caps.tmuxClient?.terminalType ?? "the outer terminal"
        if option == .kittyPlaceholders {
            return RendererSelection(
                kind: .kittyPlaceholders, tmuxPassthrough: true,
                reason: "kitty Unicode placeholders forced inside \(tmux): uploaded through passthrough (needs `allow-passthrough on`)")
        }
        if option == .auto || option == .kitty, caps.graphics == .kitty, caps.tmuxPassthrough, caps.kittyPlaceholders,
           (caps.tmuxVersion ?? TmuxVersion(major: 3, minor: 3)) >= TmuxVersion(major: 3, minor: 3) {
            let switched = caps.tmuxClient?.switchedPassthroughOn == true ? "; allow-passthrough switched on for this pane" : ""
            return RendererSelection(
                kind: .kittyPlaceholders, tmuxPassthrough: true,
                reason: "\(outer) outside \(tmux) draws kitty images by Unicode placeholders, uploaded through passthrough\(switched)"
                    + (option == .kitty ? " (forced by --renderer)" : ""))
        }
        let kittyLack: String
        if caps.kittyPlaceholders && !caps.tmuxPassthrough {
            kittyLack = "inside \(tmux): \(text); allow-passthrough is off and could not be switched on (`tmux set -p allow-passthrough on`)"
        } else {
            kittyLack = "inside \(tmux): \(text); \(outer) draws no Unicode placeholders (kitty 0.28+, Ghostty) and kitty placements through passthrough would be misplaced"
        }
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
            let why = caps.sources["graphics"].map { " (\($0))" } ?? ""
            return RendererSelection(kind: text, tmuxPassthrough: false, reason: "inside \(tmux), no bitmap graphics: \(text)\(why)")
        }
    }
}
