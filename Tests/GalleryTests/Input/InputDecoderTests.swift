import CNcurses
import Testing
@testable import Gallery
import ImageCodecs
import TerminalGraphics

@Suite struct InputDecoderTests {
    func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test func decodesCharactersAndControlKeys() {
        #expect(decode("jk") == [.character("j"), .character("k")])
        #expect(decode("\r\u{7F}\t\u{03}") == [.key(.enter), .key(.backspace), .key(.tab), .character("\u{03}")])
        #expect(decode("é日") == [.character("é"), .character("日")])
    }

    /// kitty's error reply to a placement (`q=1`) is a graphics reply, never keys; OK replies vanish.
    @Test func kittyErrorRepliesAreGraphicsRepliesNotKeys() {
        var decoder = InputDecoder()
        let message = "ENOENT:Put command refers to non-existent image with id: 1234567890 and number: 0"
        let events = decoder.feed(Array("j\u{1B}_Gi=1234567890,p=16777217;\(message)\u{1B}\\\u{1B}_Gi=5;OK\u{1B}\\k".utf8))
        #expect(events == [.character("j"), .graphicsReply(message), .character("k")])
    }

    /// Focus reports (`CSI ?1004h`): `CSI I` gained, `CSI O` lost; never keys.
    @Test func focusReportsAreFocusEvents() {
        #expect(decode("\u{1B}[I\u{1B}[Oj") == [.focus(true), .focus(false), .character("j")])
    }

    /// A cell size asked again after a resize comes back as input: an event, never a key.
    @Test func cellSizeRepliesAreEventsNotKeys() {
        var window = ProbeReplies()
        window.windowPixelSize = PixelSize(width: 1100, height: 630)
        var cell = ProbeReplies()
        cell.cellPixelSize = PixelSize(width: 11, height: 21)
        #expect(decode("\u{1B}[4;630;1100t\u{1B}[6;21;11tj") == [.cellSizeReply(window), .cellSizeReply(cell), .character("j")])
        #expect(decode("\u{1B}[8;24;80t") == [])  // a text-area size in cells: nothing to learn
    }

    @Test func decodesCursorAndPagingSequences() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(decode("\u{1B}OA\u{1B}OH\u{1B}OF") == [.key(.up), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[H\u{1B}[F") == [.key(.pageUp), .key(.pageDown), .key(.home), .key(.end), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[1;5A") == [.key(.up)])
        #expect(decode("\u{1B}[I\u{1B}[O").allSatisfy { if case .focus = $0 { true } else { false } })  // no keys
    }

    @Test func decodesSGRMouseReports() {
        #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(button: .left, pressed: true, column: 9, row: 4))])
        #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(button: .left, pressed: false, column: 9, row: 4))])
        #expect(decode("\u{1B}[<64;1;1M\u{1B}[<65;1;1M") == [
            .mouse(MouseEvent(button: .wheelUp, pressed: true, column: 0, row: 0)),
            .mouse(MouseEvent(button: .wheelDown, pressed: true, column: 0, row: 0)),
        ])
        #expect(decode("\u{1B}[<32;3;3M") == [.mouse(MouseEvent(button: .left, pressed: true, motion: true, column: 2, row: 2))])
        #expect(decode("\u{1B}[<0;0;5M") == [])
    }

    @Test func splitSequencesWaitForTheirEndAndALoneEscapeNeedsFlush() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPending)
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("B".utf8)) == [.key(.down)])
        #expect(!decoder.hasPending)
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.key(.escape)])
        #expect(decoder.feed([0xE6, 0x97]) == [])
        #expect(decoder.feed([0xA5]) == [.character("日")])
    }

    @Test func garbageIsBoundedAndNeverCrashes() {
        var decoder = InputDecoder()
        let endless = [0x1B, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: InputDecoder.maximumSequenceLength + 100)
        _ = decoder.feed(endless)
        // The over-long CSI ends at its final byte, dropped; the stream goes on.
        #expect(decoder.feed(Array("q".utf8)) == [])
        #expect(decoder.feed(Array("q".utf8)) == [.character("q")])
        var random = InputDecoder()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 { _ = random.feed((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        for _ in 0...32 { _ = random.flush() }  // an unfinished string waits 32 flushes
        #expect(random.feed(Array("j".utf8)) == [.character("j")])
    }

    /// Terminal replies never become keys (issue 30): a 1 MB OSC 11 reply read in 4 KB pieces with
    /// the escape timeout passing between them, and a flood of kitty error replies, give no key.
    @Test func longAndFloodedRepliesAreNeverKeys() {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        let reply = Array("\u{1B}]11;rgb:".utf8) + Array(repeating: UInt8(ascii: "q"), count: 1 << 20) + Array("\u{1B}\\".utf8)
        var offset = 0
        while offset < reply.count {
            events += decoder.feed(reply[offset..<min(reply.count, offset + 4096)])
            events += decoder.flush()
            offset += 4096
        }
        #expect(events.isEmpty)
        let flood = (0..<2000).flatMap { Array("\u{1B}_Gi=\($0);ENOENT:No such image, quit\u{1B}\\".utf8) }
        events = []
        for piece in stride(from: 0, to: flood.count, by: 1000) {
            events += decoder.feed(flood[piece..<min(flood.count, piece + 1000)])
            events += decoder.flush()
        }
        #expect(events.count == 2000)
        #expect(events.allSatisfy { if case .graphicsReply = $0 { return true } else { return false } })
        #expect(decoder.feed(Array("j".utf8)) == [.character("j")])
    }
}

@Suite struct KeyMapTests {
    @Test func mapsEveryDocumentedKey() {
        var keys = KeyMap()
        let expected: [(String, GalleryAction)] = [
            ("k", .up), ("j", .down), ("h", .left), ("l", .right), ("\u{1B}[A", .up), ("\u{1B}[B", .down),
            ("\u{1B}[D", .left), ("\u{1B}[C", .right), ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown),
            (" ", .pageDown), ("b", .pageUp), ("g", .home), ("G", .end), ("\u{1B}[H", .home), ("\u{1B}[F", .end),
            ("\r", .open), ("q", .back), ("v", .toggleView), ("?", .toggleHelp), ("n", .next), ("p", .previous),
            ("r", .refresh), ("R", .refreshVisible), ("\u{03}", .quit), ("\u{0C}", .redraw),
        ]
        for (input, action) in expected {
            var decoder = InputDecoder()
            #expect(keys.actions(for: decoder.feed(Array(input.utf8)), at: 0) == [action], "\(input.debugDescription)")
        }
        var decoder = InputDecoder()
        _ = decoder.feed([0x1B])
        #expect(keys.actions(for: decoder.flush(), at: 0) == [.back])
        #expect(keys.actions(for: [.character("x"), .key(.insert)], at: 0) == [])
    }

    @Test func wheelClickAndDoubleClick() {
        var keys = KeyMap()
        let press = InputEvent.mouse(MouseEvent(button: .left, pressed: true, column: 4, row: 2))
        let release = InputEvent.mouse(MouseEvent(button: .left, pressed: false, column: 4, row: 2))
        #expect(keys.actions(for: [press, release], at: 10.0) == [.click(column: 4, row: 2)])
        #expect(keys.actions(for: [press], at: 10.3) == [.doubleClick(column: 4, row: 2)])
        #expect(keys.actions(for: [press], at: 11.0) == [.click(column: 4, row: 2)])
        #expect(keys.actions(for: [press], at: 11.9) == [.click(column: 4, row: 2)])  // too slow
        let elsewhere = InputEvent.mouse(MouseEvent(button: .left, pressed: true, column: 5, row: 2))
        #expect(keys.actions(for: [elsewhere], at: 12.0) == [.click(column: 5, row: 2)])
        #expect(keys.actions(for: [.mouse(MouseEvent(button: .wheelDown, pressed: true, column: 0, row: 0))], at: 0) == [.scroll(1)])
        #expect(keys.actions(for: [.mouse(MouseEvent(button: .wheelUp, pressed: true, column: 0, row: 0))], at: 0) == [.scroll(-1)])
    }

    @Test func cursesKeyCodesMatchTheHeader() {
        #expect(KeyMap.action(forCursesKey: Int32(KEY_UP)) == .up)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_DOWN)) == .down)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_LEFT)) == .left)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_RIGHT)) == .right)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_PPAGE)) == .pageUp)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_NPAGE)) == .pageDown)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_HOME)) == .home)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_END)) == .end)
        #expect(KeyMap.action(forCursesKey: Int32(KEY_ENTER)) == .open)
        #expect(KeyMap.action(forCursesKey: Int32(UInt8(ascii: "G"))) == .end)
        #expect(KeyMap.action(forCursesKey: 27) == .back)
        #expect(KeyMap.action(forCursesKey: -1) == nil)
    }
}
