import Testing
import TerminalGraphics

/// `TerminalStrategy`: what the profile chooses once per terminal, and the erase it writes.
@Suite struct TerminalStrategyTests {
    static func strategy(_ caps: TerminalCapabilities, _ option: RendererOption = .auto) -> TerminalStrategy {
        TerminalProfile(capabilities: caps, renderer: option).strategy
    }

    /// xterm's sixel moves with a scroll up but not back (its record of sixels does not move back);
    /// mlterm's moves both ways; kitty both ways; tmux passthrough neither.
    @Test func scrollingDependsOnTheTerminalAndTheDirection() {
        let xterm = Self.strategy(TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "XTerm(379)"))
        #expect(xterm.scrollsImages(lines: 3) && !xterm.scrollsImages(lines: -3))
        let mlterm = Self.strategy(TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "mlterm(3.9.3)"))
        #expect(mlterm.scrollsImages(lines: 3) && mlterm.scrollsImages(lines: -3))
        let kitty = Self.strategy(TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor, terminalName: "kitty(0.26.5)"))
        #expect(kitty.scrollsImages(lines: 3) && kitty.scrollsImages(lines: -3) && kitty.textOverwritesOnlyItsCells)
        #expect(!xterm.textOverwritesOnlyItsCells)
        var tmux = TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "tmux 3.3a", inTmux: true)
        tmux.tmuxPassthrough = true
        let passed = Self.strategy(tmux, .sixel)
        #expect(!passed.scrollsImages(lines: 3) && !passed.scrollsImages(lines: -3))
    }

    /// Erasing a rectangle: `ECH` per row; spaces where tmux draws the images (and a limit on how many
    /// the grid shows); kitty's delete by cell first where sixel images are placements (Konsole).
    @Test func erasingIsECHSpacesOrADeleteByCellFirst() {
        let rect = CellRect(column: 2, row: 1, columns: 3, rows: 2)
        let plain = String(decoding: TerminalStrategy().erase(rect), as: UTF8.self)
        #expect(plain == "\u{1B}[2;3H\u{1B}[3X\u{1B}[3;3H\u{1B}[3X")
        var caps = TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "tmux 3.5a", inTmux: true)
        caps.tmuxSixel = true
        let tmux = Self.strategy(caps)
        #expect(tmux.coversBeforePlacing && tmux.imageLimit == TmuxImages.knownLimit)
        #expect(String(decoding: tmux.erase(rect), as: UTF8.self) == "\u{1B}[2;3H   \u{1B}[3;3H   ")
        let konsole = Self.strategy(TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor, terminalName: "Konsole"), .sixel)
        #expect(konsole.deletesBitmapsByCell && !konsole.coversBeforePlacing && konsole.imageLimit == nil)
        #expect(String(decoding: konsole.erase(rect), as: UTF8.self).hasPrefix("\u{1B}_Ga=d,d=p,x=3,y=2,q=2\u{1B}\\\u{1B}[2;3H\u{1B}[3X"))
        #expect(TerminalStrategy().erase(CellRect(column: 0, row: 0, columns: 0, rows: 4)).isEmpty)
    }

    /// Only images kept in the terminal's own record (sixel) are repainted when focus returns.
    @Test func onlySixelRepaintsOnFocus() {
        let caps = TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "XTerm(379)")
        #expect(Self.strategy(caps).repaintsOnFocus)
        #expect(!Self.strategy(caps, .halfBlock).repaintsOnFocus)
        #expect(!Self.strategy(TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor)).repaintsOnFocus)
    }
}
