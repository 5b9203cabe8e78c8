import Foundation
import Testing
@testable import TerminalGraphics
import ImageCodecs
import Locking

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TerminalProfileTests {
    /// A terminal that answers only `CSI 14 t` (VTE) and whose answer changes after a resize (a font
    /// zoom): the profile re-asks after the resize, and the reply, read back from the pty as input,
    /// gives the new cell size. Before, the size learnt at start was kept for the whole run.
    @Test func aCellSizeLearntFromCSI14tIsAskedAgainAfterAResize() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.slave, UInt(TIOCSWINSZ), &size) == 0)
        let windowPixels = Locked("504;720")
        let stop = Locked(false)
        let master = pty.master
        // The terminal: answers every CSI 14 t with the window's pixels as they are now, DA1 with
        // no graphics; never CSI 16 t, never pixels in TIOCGWINSZ.
        let terminal = Thread {
            var pending = ""
            while !stop.withLock({ $0 }) {
                pending += String(decoding: PseudoTerminal.read(master, count: 1), as: UTF8.self)
                // Answer each query in order, as far as it has arrived.
                while let query = ["\u{1B}[14t", "\u{1B}[c"].compactMap({ pending.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
                    let reply = pending[query] == "\u{1B}[c" ? "\u{1B}[?65;1;9c" : "\u{1B}[4;\(windowPixels.withLock { $0 })t"
                    pending = String(pending[query.upperBound...])
                    _ = Array(reply.utf8).withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                }
            }
        }
        terminal.start()
        defer { stop.withLock { $0 = true } }

        var profile = TerminalProfile.detect(use: .gallery, input: pty.slave, output: pty.slave,
                                             environment: ["TERM": "xterm-256color"], timeoutMilliseconds: 2000, queryBackground: false)
        #expect(profile.cellPixelSize == PixelSize(width: 9, height: 21), "\(profile.report)")

        // The font grows: 100×30 cells of 11×21 in 1100×630 pixels.
        windowPixels.withLock { $0 = "630;1100" }
        size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.slave, UInt(TIOCSWINSZ), &size) == 0)
        let window = try #require(WindowSize.read(pty.slave))
        let asked = profile.resized(to: window)
        let query = try #require(asked, "a size told in a reply must be asked again")
        #expect(profile.cellPixelSize == PixelSize(width: 9, height: 21))  // kept until the reply comes
        _ = query.withUnsafeBytes { Glibc.write(pty.slave, $0.baseAddress, $0.count) }

        // The reply arrives as input (the gallery's decoder hands such CSI replies to the profile),
        // with the terminal in raw mode as curses keeps it.
        var mode = termios()
        #expect(tcgetattr(pty.slave, &mode) == 0)
        cfmakeraw(&mode)
        #expect(tcsetattr(pty.slave, TCSANOW, &mode) == 0)
        var input: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while ProbeReplyParser.parse(input).windowPixelSize == nil && Date() < deadline {
            input += PseudoTerminal.read(pty.slave, count: 1)
        }
        let learnt = profile.learn(ProbeReplyParser.parse(input))
        #expect(learnt)
        #expect(profile.cellPixelSize == PixelSize(width: 11, height: 21))
        #expect(profile.cellSizeSource.description == "CSI 14 t: 1100×630 px ÷ 100×30 cells")
    }

    @Test func windowPixelsWinAndTheProbedSizeIsKeptWithoutThem() {
        var caps = TerminalCapabilities(cellPixelSize: PixelSize(width: 10, height: 20))
        caps.cellSizeSource = .cellReport
        var profile = TerminalProfile(capabilities: caps)
        let cells = CellSize(columns: 80, rows: 24)
        // No pixels in TIOCGWINSZ (tmux, mlterm): the probed size stays, and is asked again.
        var asked = profile.resized(to: WindowSize(cells: cells))
        #expect(asked == TerminalProfile.cellSizeQuery)
        #expect(profile.cellPixelSize == PixelSize(width: 10, height: 20))
        // Sane pixels: they give the size, nothing to ask, and replies no longer override them.
        asked = profile.resized(to: WindowSize(cells: cells, pixels: PixelSize(width: 720, height: 408)))
        #expect(asked == nil)
        #expect(profile.cellPixelSize == PixelSize(width: 9, height: 17))
        var reply = ProbeReplies()
        reply.cellPixelSize = PixelSize(width: 12, height: 24)
        let learnt = profile.learn(reply)
        #expect(!learnt)
        // Pixels gone again: back to what the probe knew.
        _ = profile.resized(to: WindowSize(cells: cells))
        #expect(profile.cellPixelSize == PixelSize(width: 10, height: 20))
        // Nothing known: 8×16, and nothing is asked.
        var silent = TerminalProfile(capabilities: TerminalCapabilities())
        asked = silent.resized(to: WindowSize(cells: cells))
        #expect(asked == nil)
        #expect(silent.cellPixelSize == PixelSize(width: 8, height: 16))
    }

    @Test func sheetRules() {
        let mono = TerminalCapabilities(colorDepth: .mono)
        // Piped, nothing forced: half blocks, and a sheet always has at least 16 colours.
        let piped = TerminalProfile(capabilities: mono, use: .sheet(terminal: false, dumb: false))
        #expect(piped.colorDepth == .color16 && piped.renderer.kind == .halfBlock(.color16))
        // TERM=dumb with nothing forced: plain captions, no escape sequence.
        #expect(TerminalProfile(capabilities: mono, use: .sheet(terminal: false, dumb: true)).colorDepth == nil)
        #expect(TerminalProfile(capabilities: mono, use: .sheet(terminal: false, dumb: true), colors: .color256).colorDepth == .color256)
        // --colors mono piped: ASCII.
        #expect(TerminalProfile(capabilities: mono, use: .sheet(terminal: false, dumb: false), colors: .mono).renderer.kind == .ascii)
        // The gallery keeps mono: ASCII.
        #expect(TerminalProfile(capabilities: mono).renderer.kind == .ascii)
        // tmux's limitation line only where a terminal was asked.
        var tmux = TerminalCapabilities(graphics: .sixel, colorDepth: .color256, inTmux: true)
        tmux.tmuxVersion = TmuxVersion("3.3a")
        #expect(TerminalProfile(capabilities: tmux, use: .sheet(terminal: true, dumb: false)).limitation != nil)
        #expect(TerminalProfile(capabilities: tmux, use: .sheet(terminal: false, dumb: false)).limitation == nil)
        #expect(TerminalProfile(capabilities: tmux).limitation != nil)
    }

    /// tmux 3.5a drawing sixel itself keeps 9 images (a grid of 15 lost 6 at its next redraw): the
    /// profile says so; passthrough, kitty and text do not go through tmux's image store.
    @Test func tmuxDrawingSixelItselfLimitsTheImages() {
        var caps = TerminalCapabilities(graphics: .sixel, colorDepth: .color256, inTmux: true)
        caps.tmuxVersion = TmuxVersion("3.5a")
        caps.tmuxSixel = true
        let profile = TerminalProfile(capabilities: caps)
        #expect(profile.strategy.tmuxImages == TmuxImages(limit: 9, version: "3.5a"))
        #expect(profile.strategy.tmuxImages?.note == "tmux 3.5a keeps 9 sixel images at a time: at most 9 on screen")
        #expect(TerminalProfile(capabilities: caps, renderer: .halfBlock).strategy.tmuxImages == nil)
        caps.tmuxSixel = false
        #expect(TerminalProfile(capabilities: caps, renderer: .sixel).strategy.tmuxImages == nil)  // passthrough
        #expect(TerminalProfile(capabilities: TerminalCapabilities(graphics: .sixel, colorDepth: .color256)).strategy.tmuxImages == nil)
    }

    /// Konsole (it answers the kitty query) keeps a forced sixel or iTerm2 image as a placement text
    /// does not erase: the profile says to delete them by cell; never for a terminal that did not answer.
    @Test func bitmapsAreDeletedByCellOnlyWhereKittyGraphicsAnswered() {
        let konsole = TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor)
        #expect(TerminalProfile(capabilities: konsole, renderer: .sixel).strategy.deletesBitmapsByCell)
        #expect(TerminalProfile(capabilities: konsole, renderer: .iterm2).strategy.deletesBitmapsByCell)
        #expect(!TerminalProfile(capabilities: konsole).strategy.deletesBitmapsByCell)  // kitty deletes its own
        #expect(!TerminalProfile(capabilities: TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor)).strategy.deletesBitmapsByCell)
    }

    @Test func synchronizedOutputFromTheReplyElseFromTheName() {
        let kitty = ["TERM": "xterm-kitty"]
        let unasked = TerminalCapabilities.resolve(probe: ProbeResult(status: .notRun), environment: kitty)
        #expect(TerminalProfile(capabilities: unasked, environment: kitty).strategy.synchronizedOutput)
        let silent = TerminalCapabilities.resolve(probe: ProbeResult(status: .answered), environment: kitty)
        #expect(!TerminalProfile(capabilities: silent, environment: kitty).strategy.synchronizedOutput)
    }
}
