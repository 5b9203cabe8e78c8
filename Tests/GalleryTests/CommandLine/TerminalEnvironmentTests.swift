import Testing
import TerminalGraphics
@testable import Gallery

@Suite struct TerminalEnvironmentTests {
    func environment(term: String?, colorTerm: String? = nil, program: String? = nil, tmux: Bool = false) -> TerminalEnvironment {
        TerminalEnvironment(term: term, colorTerm: colorTerm, termProgram: program, inTmux: tmux, columns: 80, rows: 24,
                            cellPixels: .init(width: 8, height: 16), cellPixelsMeasured: false)
    }

    @Test func galleryAndTerminalGraphicsAgreeOnColours() {
        // They disagreed: plain xterm 256 (Gallery) vs 16 (TerminalGraphics); an unknown terminal
        // truecolor (Gallery) vs 16 (TerminalGraphics). Plain xterm has the 256-colour palette; an
        // unknown terminal gets 16.
        #expect(environment(term: "xterm").colorDepth == .palette256)
        #expect(EnvironmentHints(environment: ["TERM": "xterm"]).colorDepth == .color256)
        #expect(environment(term: "some-terminal").colorDepth == .basic16)
        #expect(environment(term: "xterm-256color", colorTerm: "truecolor").colorDepth == .truecolor)
        #expect(environment(term: "screen").colorDepth == .basic16)
        #expect(environment(term: "tmux-256color", tmux: true).colorDepth == .palette256)
        for term in ["xterm", "xterm-256color", "linux", "vt100", "screen", "foot", "xterm-kitty", "dumb", "weird"] {
            let hinted = EnvironmentHints(environment: ["TERM": term]).colorDepth
            let gallery = environment(term: term).colorDepth
            #expect(gallery.depth == (hinted == .mono ? .color16 : hinted), "\(term)")
        }
    }
}
