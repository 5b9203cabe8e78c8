import Testing
@testable import TerminalGraphics
import ImageCodecs

@Suite struct TerminalCapabilitiesTests {
    func resolve(_ reply: String, _ env: [String: String], window: PixelSize? = nil) -> TerminalCapabilities {
        let replies = ProbeReplyParser.parse(Array(reply.utf8))
        let status: ProbeStatus = replies.sawDeviceAttributes ? .answered : .timedOut
        return TerminalCapabilities.resolve(
            probe: ProbeResult(status: status, replies: replies, windowCellPixelSize: window), environment: env)
    }

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

    @Test func kittyAnsweringThroughTmuxPassthroughIsUsedWrapped() {
        // tmux 3.3a's own replies (DA1 first), then the outer kitty's, which only passthrough delivers.
        let env = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]
        let caps = resolve(CannedReplies.tmux + "\u{1B}[?1;2c" + "\u{1B}_Gi=31;OK\u{1B}\\", env)
        #expect(caps.inTmux && caps.graphics == .kitty && caps.tmuxPassthrough)
        let auto = RendererSelection.choose(for: caps)
        #expect(auto.kind == .kitty && auto.tmuxPassthrough)
        // No reply through passthrough (allow-passthrough off): text, with the reason.
        let off = resolve(CannedReplies.tmux + "\u{1B}[?1;2c", env.merging(["KITTY_WINDOW_ID": "1"]) { a, _ in a })
        #expect(!off.tmuxPassthrough && off.graphics == .kitty)
        let text = RendererSelection.choose(for: off)
        #expect(text.kind == .halfBlock(.truecolor) || text.kind == .halfBlock(.color256))
        #expect(text.reason.contains("allow-passthrough"))
    }

    @Test func theProbeAsksTheOuterTerminalThroughTmuxOnlyInsideTmux() {
        let wrapped = TmuxPassthrough.wrap(Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8))
        let inside = TerminalProbe.query(includeBackground: false, tmuxPassthrough: true)
        let outside = TerminalProbe.query(includeBackground: false)
        #expect(inside.count == outside.count + wrapped.count)
        #expect(String(decoding: inside, as: UTF8.self).contains(String(decoding: wrapped, as: UTF8.self)))
        #expect(inside.suffix(3) == Array("\u{1B}[c".utf8))
    }

    @Test func tmuxDefaultsToHalfBlocksUnlessForced() {
        let caps = resolve(CannedReplies.tmux + "\u{1B}[?1;2;4c", ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(caps.inTmux && caps.graphics == .sixel)
        #expect(RendererSelection.choose(for: caps).kind == .halfBlock(.color256))
        let forced = RendererSelection.choose(for: caps, option: .sixel)
        #expect(forced.kind == .sixel && forced.tmuxPassthrough)
        #expect(caps.report(option: .sixel).contains("tmux passthrough"))
        #expect(forced.makeRenderer().identity.tmuxPassthrough)
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
