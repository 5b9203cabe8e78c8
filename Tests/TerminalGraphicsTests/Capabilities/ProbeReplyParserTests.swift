import Testing
@testable import TerminalGraphics
import ImageCodecs

/// Canned reply streams, as real terminals answer `TerminalProbe.query(includeBackground: true)`.
enum CannedReplies {
    static let xtermSixel = "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[6;20;10t\u{1B}[?2026;0$y\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c"
    static let xtermPlain = "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[6;17;9t\u{1B}[?2026;0$y\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c"
    static let mlterm = "\u{1B}[6;16;8t\u{1B}]11;rgb:ff/ff/ff\u{07}\u{1B}[?63;1;2;3;4;7;29c"
    static let kitty = "\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;34;16t\u{1B}[?2026;2$y\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{1B}\\\u{1B}[?62;c"
    static let foot = "\u{1B}P>|foot(1.16.2)\u{1B}\\\u{1B}[6;22;11t\u{1B}[?2026;2$y\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?62;4;22c"
    static let wezterm = "\u{1B}P>|WezTerm 20240203-110809-5046fc22\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?2026;2$y\u{1B}[?65;4;6;18;22c"
    static let tmux = "\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c"
}

@Suite struct ProbeReplyParserTests {
    func parse(_ s: String) -> ProbeReplies { ProbeReplyParser.parse(Array(s.utf8)) }

    @Test func xtermWithSixel() {
        let r = parse(CannedReplies.xtermSixel)
        #expect(r.terminalVersion == "XTerm(379)")
        #expect(r.supportsSixel)
        #expect(r.kittyGraphics == nil)
        #expect(r.cellPixelSize == PixelSize(width: 10, height: 20))
        #expect(r.syncOutputMode == 0 && !r.supportsSyncOutput)
        #expect(r.backgroundColor == .black)
    }

    @Test func xtermWithoutSixel() {
        let r = parse(CannedReplies.xtermPlain)
        #expect(r.sawDeviceAttributes && !r.supportsSixel)
        #expect(r.cellPixelSize == PixelSize(width: 9, height: 17))
    }

    @Test func mltermAnswersWithBELTerminatedOSC() {
        let r = parse(CannedReplies.mlterm)
        #expect(r.terminalVersion == nil)
        #expect(r.supportsSixel)
        #expect(r.backgroundColor == RGBColor(r: 255, g: 255, b: 255))
        #expect(r.cellPixelSize == PixelSize(width: 8, height: 16))
    }

    @Test func kittyAnswersGraphicsQuery() {
        let r = parse(CannedReplies.kitty)
        #expect(r.kittyGraphics == true && !r.supportsSixel)
        #expect(r.supportsSyncOutput)
        #expect(r.backgroundColor == RGBColor(r: 30, g: 30, b: 46))
        #expect(r.terminalVersion == "kitty(0.35.2)")
    }

    @Test func footHasSixelAndSync() {
        let r = parse(CannedReplies.foot)
        #expect(r.supportsSixel && r.supportsSyncOutput && r.kittyGraphics == nil)
        #expect(r.cellPixelSize == PixelSize(width: 11, height: 22))
    }

    @Test func weztermHasBoth() {
        let r = parse(CannedReplies.wezterm)
        #expect(r.kittyGraphics == true && r.supportsSixel)
        #expect(r.terminalVersion == "WezTerm 20240203-110809-5046fc22")
    }

    @Test func tmuxAnswersLittle() {
        let r = parse(CannedReplies.tmux)
        #expect(r.terminalVersion == "tmux 3.3a")
        #expect(!r.supportsSixel && r.cellPixelSize == nil)
    }

    @Test func emptyAndIncompleteStreamsHaveNoSentinel() {
        #expect(!parse("").sawDeviceAttributes)
        #expect(!parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4").sawDeviceAttributes)
        #expect(parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;1;2;4").terminalVersion == "XTerm(379)")
    }

    @Test func strayKeysAndUnknownSequencesAreSkipped() {
        let r = parse("jk\u{1B}[>0;276;0c\u{1B}OA" + CannedReplies.foot + "q")
        #expect(r.supportsSixel && r.terminalVersion == "foot(1.16.2)")
    }

    @Test func controlCharactersInTerminalTextAreStripped() {
        let r = parse("\u{1B}P>|evil\u{07}\u{08}\u{9B}2Jname\u{1B}\\\u{1B}[?1c")
        #expect(r.terminalVersion == "evilname")
    }

    @Test func kittyErrorReplyMeansNoKitty() {
        #expect(parse("\u{1B}_Gi=31;ENOTSUPPORTED:nope\u{1B}\\\u{1B}[?62c").kittyGraphics == false)
    }

    @Test func implausibleCellSizeIsIgnored() {
        #expect(parse("\u{1B}[6;0;10t\u{1B}[?62c").cellPixelSize == nil)
        #expect(parse("\u{1B}[6;99999999999999999999;10t\u{1B}[?62c").cellPixelSize == nil)
        // A terminal telling a 1×1 cell or a 1×1 graphics limit (issue 30): neither is taken.
        #expect(parse("\u{1B}[6;1;1t\u{1B}[?62c").cellPixelSize == nil)
        #expect(parse("\u{1B}[6;2000;8t\u{1B}[?62c").cellPixelSize == nil)
        #expect(parse("\u{1B}[?2;0;1;1S\u{1B}[?62;4c").graphicsLimit == nil)
        #expect(parse("\u{1B}[?2;0;1000;1000S\u{1B}[?62;4c").graphicsLimit == PixelSize(width: 1000, height: 1000))
        #expect(parse("\u{1B}[6;16;8t\u{1B}[?62c").cellPixelSize == PixelSize(width: 8, height: 16))
        #expect(WindowSize.cell(of: PixelSize(width: 80, height: 24), over: CellSize(columns: 80, rows: 24)) == nil)
    }
}
