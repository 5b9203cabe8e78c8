import Foundation
import ImageCodecs
import Testing
@testable import TerminalGraphics

@Suite struct ITermRendererTests {
    @Test func oneOSC1337WithAPNGSizedInCells() throws {
        let image = TestImages.photo(width: 64, height: 32)
        let out = try ITermRenderer().render(image, cells: CellSize(columns: 10, rows: 10), cellPixelSize: PixelSize(width: 8, height: 16))
        let text = String(decoding: out.bytes, as: UTF8.self)
        // 80×160 px of cells: a 2:1 image fits as 80×40, 10 columns × 3 rows.
        #expect(out.kind == .iterm2 && out.pixelSize == PixelSize(width: 80, height: 40) && out.cells == CellSize(columns: 10, rows: 3))
        #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(text.contains(";width=10;height=3;preserveAspectRatio=1:"))
        #expect(out.bytes.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        #expect(out.rows.isEmpty)
        // The payload is a PNG of the scaled image, as the codecs read it back.
        let base64 = text.split(separator: ":").last!.dropLast(2)
        let png = try #require(Data(base64Encoded: String(base64)))
        #expect(text.contains("size=\(png.count);"))
        let decoded = try ImageCoders.decode(png)
        #expect(decoded.width == 80 && decoded.height == 40)
        #expect(decoded.pixels == image.pixels(scaledTo: PixelSize(width: 80, height: 40)))
    }

    @Test func transparencyIsKeptAsRGBA() throws {
        let image = TestImages.make(width: 2, height: 1, [(255, 0, 0, 0), (0, 0, 255, 255)])
        let png = try #require(PNGEncoder.encode(rgba: image.pixels, size: image.size))
        #expect(png[25] == 6)  // colour type RGBA
        #expect(try ImageCoders.decode(Data(png)).pixels == image.pixels)
    }

    @Test func chosenOnlyForTerminalsKnownByNameNeverBlind() {
        func caps(_ reply: String, _ env: [String: String]) -> TerminalCapabilities {
            let replies = ProbeReplyParser.parse(Array(reply.utf8))
            return TerminalCapabilities.resolve(probe: ProbeResult(status: replies.sawDeviceAttributes ? .answered : .timedOut, replies: replies),
                                                environment: env)
        }
        // WezTerm without probe answers: not kitty; iTerm2 images (it is known by name).
        let silentWezTerm = caps("", ["TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"])
        #expect(silentWezTerm.graphics != .kitty)
        #expect(RendererSelection.choose(for: silentWezTerm).kind == .iterm2)
        // WezTerm answering everything (kitty and sixel too): iTerm2 images, named by XTVERSION.
        #expect(RendererSelection.choose(for: caps(CannedReplies.wezterm, [:])).kind == .iterm2)
        #expect(RendererSelection.choose(for: caps("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c", [:])).kind == .iterm2)
        // Never blind: an unknown terminal, kitty, xterm, mlterm do not get it.
        for reply in [CannedReplies.kitty, CannedReplies.xtermSixel, CannedReplies.mlterm, "\u{1B}[?62c"] {
            #expect(RendererSelection.choose(for: caps(reply, ["TERM": "xterm-256color"])).kind != .iterm2)
        }
        // Forced: drawn; inside tmux: text, and the status says why.
        #expect(RendererSelection.choose(for: caps("\u{1B}[?62c", [:]), option: .iterm2).kind == .iterm2)
        let tmux = caps(CannedReplies.tmux, ["TMUX": "/tmp/t,1,0", "TERM": "tmux-256color"])
        #expect(RendererSelection.choose(for: tmux, option: .iterm2).limitation?.contains("iTerm2") == true)
    }
}
