import Testing
@testable import Gallery

@Suite struct TerminalTextTests {
    @Test func stripsEveryControlCharacter() {
        var hostile = ""
        for v in 0..<0x20 { hostile.unicodeScalars.append(Unicode.Scalar(UInt8(v))) }
        hostile += "\u{7F}\u{80}\u{9B}\u{9F}\u{9C}\u{2028}\u{202E}\u{2066}\u{FEFF}ok é 日"  // 9F…9C: an APC string
        #expect(TerminalText.sanitize(hostile) == "ok é 日")
        #expect(TerminalText.sanitize(bytes: [0x1B, 0x5B, 0x32, 0x4A, 0xFF, 0x41]) == "\u{FFFD}A")  // the whole CSI 2J goes
    }

    @Test func measuresAndFitsWideText() {
        #expect(TerminalText.width(of: "abc") == 3)
        #expect(TerminalText.width(of: "日本") == 4)
        #expect(TerminalText.width(of: "e\u{301}") == 1)
        #expect(TerminalText.width(of: "🙂") == 2)
        // glibc's wcwidth, as ncursesw places them: Hangul jamo vowels join (0), fullwidth forms are 2.
        #expect(TerminalText.width(of: "\u{1100}\u{1161}") == 2)
        #expect(TerminalText.width(of: "ＡＢ") == 4)
        #expect(TerminalText.width(of: "a\u{200B}b") == 2)
        #expect(TerminalText.fit("abcdef", width: 4) == "abc…")
        #expect(TerminalText.fit("日本語", width: 4) == "日…")
        #expect(TerminalText.fit("abc", width: 0) == "")
        #expect(TerminalText.pad("日本語", width: 5) == "日本…")
        #expect(TerminalText.width(of: TerminalText.pad("日本語", width: 4)) == 4)
        #expect(TerminalText.center("ab", width: 6) == "  ab  ")
    }
}
