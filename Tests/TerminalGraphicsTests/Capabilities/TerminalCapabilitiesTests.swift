import Testing
@testable import TerminalGraphics
import ImageCodecs

@Suite struct TerminalCapabilitiesTests {
    func resolve(_ reply: String, _ env: [String: String], window: PixelSize? = nil, tmux client: TmuxClient? = nil) -> TerminalCapabilities {
        let replies = ProbeReplyParser.parse(Array(reply.utf8))
        let status: ProbeStatus = replies.sawDeviceAttributes ? .answered : .timedOut
        return TerminalCapabilities.resolve(
            probe: ProbeResult(status: status, replies: replies, windowCellPixelSize: window, tmuxClient: client), environment: env)
    }

    /// What tmux 3.5a said of its client in real terminals here (`tmux display -p
    /// '#{client_termfeatures}|#{client_termtype}'`): xterm -ti vt340 lists sixel, kitty does not.
    static let xtermClient = TmuxClient(
        passthrough: false, features: ["256", "bpaste", "clipboard", "mouse", "RGB", "sixel", "title"], terminalType: "XTerm(379)")
    static let kitty041Client = TmuxClient(passthrough: true, features: ["bpaste", "ccolour", "clipboard", "cstyle", "focus", "title"],
                                           terminalType: "kitty(0.41.1)")

    @Test func xtermVT340() {
        let caps = resolve(CannedReplies.xtermSixel, ["TERM": "xterm-256color"])
        #expect(caps.graphics == .sixel && caps.colorDepth == .color256 && !caps.inTmux)
        #expect(caps.cellPixelSize == PixelSize(width: 10, height: 20))
        #expect(RendererSelection.choose(for: caps).kind == .sixel)
    }

    @Test func windowSizeBeatsCSI16t() {
        let caps = resolve(CannedReplies.xtermSixel, [:], window: PixelSize(width: 7, height: 14))
        #expect(caps.cellPixelSize == PixelSize(width: 7, height: 14))
        #expect(caps.sources["cell size"] == "TIOCGWINSZ")
    }

    @Test func kittyPrefersKittyAndTruecolor() {
        let caps = resolve(CannedReplies.kitty, ["TERM": "xterm-kitty"])
        #expect(caps.graphics == .kitty && caps.colorDepth == .truecolor && caps.syncOutput)
        #expect(RendererSelection.choose(for: caps).kind == .kitty)
    }

    @Test func environmentFillsInWhenSilent() {
        let caps = resolve("", ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"])
        #expect(caps.graphics == .kitty && caps.probeStatus == .timedOut)
        let plain = resolve("", ["TERM": "xterm", "COLORTERM": "truecolor"])
        #expect(plain.graphics == .none && plain.colorDepth == .truecolor)
        #expect(RendererSelection.choose(for: plain).kind == .halfBlock(.truecolor))
        #expect(resolve("", ["TERM": "dumb"]).colorDepth == .mono)
        #expect(RendererSelection.choose(for: resolve("", ["TERM": "dumb"])).kind == .ascii)
    }

    @Test func kittyThroughTmuxPassthroughIsNotUsedItWouldBeMisplaced() {
        // tmux 3.3a's own replies (DA1 first), then the outer kitty's, which only passthrough delivers.
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let caps = resolve(CannedReplies.tmux + "\u{1B}[?1;2c" + "\u{1B}_Gi=31;OK\u{1B}\\", env)
        #expect(caps.inTmux && caps.graphics == .kitty && caps.tmuxPassthrough)
        // A passthrough placement follows the outer terminal's cursor, not tmux's: text, and a status.
        for option in [RendererOption.auto, .kitty] {
            let selection = RendererSelection.choose(for: caps, option: option)
            #expect(!selection.kind.isBitmap && !selection.tmuxPassthrough, "\(option)")
            #expect(selection.limitation?.contains("kitty") == true, "\(option)")
        }
        #expect(TerminalProfile(capabilities: caps, renderer: .auto).report.contains("note:"))
    }

    @Test func theProbeSendsNoRawKittyQueryInsideAMultiplexer() {
        let kitty = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
        let wrapped = TmuxPassthrough.wrap(kitty)
        let inTmux = TerminalProbe.query(includeBackground: false, multiplexer: .tmux)
        let inScreen = TerminalProbe.query(includeBackground: false, multiplexer: .screen)
        let outside = TerminalProbe.query(includeBackground: false)
        // Inside tmux only the wrapped query; inside screen none; every APC raw only outside.
        let raw = "\u{1B}_G"
        #expect(!String(decoding: inTmux, as: UTF8.self).replacingOccurrences(of: "\u{1B}\u{1B}", with: "").contains(raw))
        #expect(!String(decoding: inScreen, as: UTF8.self).contains("_G"))
        #expect(String(decoding: outside, as: UTF8.self).contains(raw))
        #expect(inTmux.count == outside.count - kitty.count + wrapped.count)
        #expect(inScreen.count == outside.count - kitty.count)
        for query in [inTmux, inScreen, outside] { #expect(query.suffix(3) == Array("\u{1B}[c".utf8)) }
        #expect(EnvironmentHints(environment: ["STY": "123.pts-0.host", "TERM": "screen"]).multiplexer == .screen)
        #expect(EnvironmentHints(environment: ["STY": "1", "TMUX": "/tmp/t,1,0"]).multiplexer == .tmux)
    }

    @Test func tmux33DefaultsToHalfBlocksAndWrapsAForcedSixel() {
        let caps = resolve(CannedReplies.tmux + "\u{1B}[?1;2;4c", ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(caps.inTmux && caps.graphics == .sixel && !caps.tmuxSixel)
        let auto = RendererSelection.choose(for: caps)
        #expect(auto.kind == .halfBlock(.color256))
        #expect(auto.limitation?.contains("no sixel before 3.4") == true)
        let forced = RendererSelection.choose(for: caps, option: .sixel)
        #expect(forced.kind == .sixel && forced.tmuxPassthrough)
        #expect(TerminalProfile(capabilities: caps, renderer: .sixel).report.contains("tmux passthrough"))
        #expect(forced.makeRenderer().identity.tmuxPassthrough)
    }

    /// Issue 29: tmux 3.5a lists 4 in its DA1 whatever the outer terminal is, and draws a sixel only
    /// where the outer terminal can: in kitty, GNOME Terminal and every other terminal without sixel
    /// it drew "SIXEL IMAGE (39x13)" text boxes in every cell. Sixel only when tmux's client has it.
    @Test func tmux35DrawsSixelOnlyWhereTheOuterTerminalDoes() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let reply = "\u{1B}P>|tmux 3.5a\u{1B}\\\u{1B}[?1;2;4c"
        let gnome = TmuxClient(passthrough: false, features: ["256", "RGB", "title"], terminalType: "")
        for client in [gnome, TmuxClient(passthrough: false, features: ["title"], terminalType: "kitty(0.26.5)"), nil] {
            let caps = resolve(reply, env, tmux: client)
            #expect(caps.inTmux && !caps.tmuxSixel && caps.graphics == .none, "\(String(describing: client))")
            let selection = RendererSelection.choose(for: caps)
            #expect(selection.kind == .halfBlock(.color256) && selection.limitation == nil)
            #expect(selection.reason.contains("tmux would draw text boxes") || selection.reason.contains("did not say"), "\(selection.reason)")
            #expect(TerminalProfile(capabilities: caps).strategy.tmuxImages == nil)
            // Forced, it is still sent (wrapped: tmux would not draw it).
            #expect(RendererSelection.choose(for: caps, option: .sixel).tmuxPassthrough)
        }
        let xterm = resolve(reply, env, tmux: Self.xtermClient)
        #expect(xterm.tmuxSixel && RendererSelection.choose(for: xterm).kind == .sixel)
        #expect(TerminalProfile(capabilities: xterm).report.contains("outer terminal XTerm(379) with sixel"))
    }

    /// Issue 29: kitty ≥ 0.28 outside tmux ≥ 3.3 draws Unicode placeholders: its reply through
    /// passthrough plus its name (tmux's client_termtype) choose them; kitty 0.26 keeps text, and
    /// says why.
    @Test func kittyOutsideTmuxGetsUnicodePlaceholdersFrom028() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let reply = "\u{1B}P>|tmux 3.5a\u{1B}\\\u{1B}[?1;2;4c\u{1B}_Gi=31;OK\u{1B}\\"
        let caps = resolve(reply, env, tmux: Self.kitty041Client)
        #expect(caps.graphics == .kitty && caps.tmuxPassthrough && caps.kittyPlaceholders && !caps.tmuxSixel)
        for option in [RendererOption.auto, .kitty] {
            let selection = RendererSelection.choose(for: caps, option: option)
            #expect(selection.kind == .kittyPlaceholders && selection.tmuxPassthrough && selection.limitation == nil)
            #expect(selection.reason.contains("kitty(0.41.1) outside tmux 3.5a"))
            let renderer = selection.makeRenderer()
            #expect(renderer.identity.kind == .kittyPlaceholders && renderer.identity.tmuxPassthrough)
        }
        let profile = TerminalProfile(capabilities: caps)
        let strategy = profile.strategy
        #expect(strategy.scrollsUpWithText && strategy.scrollsDownWithText && strategy.textOverwritesOnlyItsCells && strategy.tmuxImages == nil)
        #expect(profile.limitation == nil && !strategy.deletesBitmapsByCell)
        // Switched on by the probe: the report says so.
        var switched = Self.kitty041Client
        switched.switchedPassthroughOn = true
        #expect(TerminalProfile(capabilities: resolve(reply, env, tmux: switched)).report.contains("switched on for this pane"))
        // kitty 0.26 (Debian 12) has no placeholders: text, and the status line says why.
        let old = resolve(reply, env, tmux: TmuxClient(passthrough: true, features: ["title"], terminalType: "kitty(0.26.5)"))
        let text = RendererSelection.choose(for: old)
        #expect(text.kind == .halfBlock(.truecolor) && text.limitation?.contains("draws no Unicode placeholders") == true)
        // Passthrough off and not switched on: no reply came; the limitation names the fix.
        var off = Self.kitty041Client
        off.passthrough = false
        let silent = resolve("\u{1B}P>|tmux 3.5a\u{1B}\\\u{1B}[?1;2c", env.merging(["KITTY_WINDOW_ID": "1"]) { a, _ in a }, tmux: off)
        #expect(silent.kittyPlaceholders && !silent.tmuxPassthrough)
        #expect(RendererSelection.choose(for: silent).limitation?.contains("allow-passthrough is off") == true)
        // Outside tmux, placeholders are not chosen (direct placements; docs/architecture.md).
        let direct = resolve("\u{1B}P>|kitty(0.41.1)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c", ["TERM": "xterm-kitty"])
        #expect(direct.kittyPlaceholders && RendererSelection.choose(for: direct).kind == .kitty)
    }

    @Test func tmux35WithSixelDrawsSixelItselfUnwrapped() {
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let caps = resolve("\u{1B}P>|tmux 3.5a\u{1B}\\\u{1B}[?1;2;4c", env, tmux: Self.xtermClient)
        #expect(caps.inTmux && caps.tmuxSixel && caps.tmuxVersion == TmuxVersion("3.5a"))
        for option in [RendererOption.auto, .sixel] {
            let selection = RendererSelection.choose(for: caps, option: option)
            #expect(selection.kind == .sixel && !selection.tmuxPassthrough && selection.limitation == nil, "\(option)")
            #expect(!selection.makeRenderer().identity.tmuxPassthrough)
        }
        #expect(TerminalProfile(capabilities: caps, renderer: .auto).report.contains("3.5a, draws sixel itself"))
        // The version from the environment when XTVERSION is silent; a 3.5a without sixel: text.
        let quiet = resolve("\u{1B}[?1;2;4c", env.merging(["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.5a"]) { a, _ in a },
                            tmux: Self.xtermClient)
        #expect(quiet.tmuxSixel && RendererSelection.choose(for: quiet).kind == .sixel)
        let noSixel = resolve("\u{1B}P>|tmux 3.5a\u{1B}\\\u{1B}[?1;2c", env)
        #expect(!noSixel.tmuxSixel && RendererSelection.choose(for: noSixel).kind == .halfBlock(.color256))
        #expect(TmuxVersion("tmux next-3.6")! > TmuxVersion("3.5a")! && TmuxVersion("3.3a")! < .firstWithSixel)
        #expect(TmuxVersion("garbage") == nil)
    }

    @Test func cellSizeChainEndsInAStatedFallback() {
        let cells = CellSize(columns: 80, rows: 24)
        func caps(_ reply: String, _ env: [String: String] = [:]) -> TerminalCapabilities {
            TerminalCapabilities.resolve(
                probe: ProbeResult(status: .answered, replies: ProbeReplyParser.parse(Array(reply.utf8)), windowCells: cells),
                environment: env)
        }
        // VTE: only CSI 14t (window pixels) answered.
        let vte = caps("\u{1B}[4;504;720t\u{1B}[?65;1;9c")
        #expect(vte.cellPixelSize == PixelSize(width: 9, height: 21))
        #expect(vte.sources["cell size"]?.hasPrefix("CSI 14 t") == true)
        // CSI 16t wins over 14t.
        #expect(caps("\u{1B}[6;20;10t\u{1B}[4;504;720t\u{1B}[?65c").sources["cell size"] == "CSI 16 t")
        // Windows Terminal by name; else the stated fallback, printed as a size.
        let wt = caps("\u{1B}[?61;4c", ["WT_SESSION": "f00"])
        #expect(wt.cellPixelSize == PixelSize(width: 10, height: 20) && wt.sources["cell size"]?.contains("Windows Terminal") == true)
        let silent = caps("\u{1B}[?61c")
        #expect(silent.cellPixelSize == nil)
        #expect(silent.description.contains("cell size:           8×16 (assumed"))
    }

    @Test func xtsmgraphicsLimitScalesSixelOutputToFit() throws {
        let caps = resolve(CannedReplies.xtermSixel + "\u{1B}[?2;0;1000;1000S", ["TERM": "xterm-256color"])
        #expect(caps.graphicsLimit == PixelSize(width: 1000, height: 1000))
        let selection = RendererSelection.choose(for: caps)
        #expect(selection.kind == .sixel && selection.graphicsLimit == caps.graphicsLimit)
        #expect(caps.description.contains("graphics limit:      1000×1000 (XTSMGRAPHICS)"))
        // A 160-column full view of a 2:1 image would be 1600 px wide: it is sent at 1000.
        let image = TestImages.solid(width: 400, height: 200, r: 200, g: 30, b: 90)
        let rendered = try selection.makeRenderer().render(image, cells: CellSize(columns: 160, rows: 40), cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(rendered.pixelSize.width <= 1000 && rendered.pixelSize.height <= 1000)
        #expect(rendered.pixelSize == PixelSize(width: 1000, height: 500))
        #expect(try SixelRenderer.decode(rendered.bytes).width == 1000)
    }

    @Test func descriptionIsSanitized() {
        let caps = resolve("\u{1B}P>|bad\u{07}name\u{1B}\\\u{1B}[?62;4c", ["TERM_PROGRAM": "x\u{1B}]0;pwned\u{07}"])
        let text = caps.description
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(text.contains("terminal:            badname"))
        #expect(text.contains("renderer:            sixel"))
    }

    @Test func synchronizedOutputIsKnownOnlyForTerminalsThatHaveIt() {
        // One set of environment rules (the gallery's own copy is gone): kitty, WezTerm, foot and
        // Ghostty take mode 2026 unasked; xterm and tmux are asked by the probe or left alone.
        for env in [["TERM": "xterm-kitty"], ["TERM_PROGRAM": "WezTerm"], ["TERM": "foot"], ["TERM_PROGRAM": "ghostty"]] {
            #expect(EnvironmentHints(environment: env).synchronizedOutput, "\(env)")
        }
        for env in [["TERM": "xterm"], ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], ["TERM": "dumb"], [:]] {
            #expect(!EnvironmentHints(environment: env).synchronizedOutput, "\(env)")
        }
        #expect(EnvironmentHints(environment: ["TERM": "xterm"]).colorDepth == .color256)
        #expect(EnvironmentHints(environment: ["TERM": "some-terminal"]).colorDepth == .color16)
    }
}
