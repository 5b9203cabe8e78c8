import SafeText
import Testing

@Suite struct UntrustedTextTests {
    @Test func sanitizeReplacesControlsTrimsAndCaps() {
        #expect(UntrustedText.sanitize("Not\u{1B}[2J Found\u{07}") == "Not Found")
        #expect(UntrustedText.sanitize("\r\n  OK \t") == "OK")
        #expect(UntrustedText.sanitize("a\u{9B}31mb") == "ab")  // 8-bit CSI, whole
        #expect(UntrustedText.sanitize("x\u{202E}gnp.exe") == "x gnp.exe")  // bidi override
        #expect(UntrustedText.sanitize(String(repeating: "é", count: 600)).unicodeScalars.count == 512)
        #expect(UntrustedText.sanitize("abcdef", maxLength: 3) == "abc")
        #expect(UntrustedText.sanitize(bytes: [0x41, 0x07, 0xFF, 0x42]) == "A \u{FFFD}B")
        #expect(UntrustedText.sanitize(bytes: [0x41, 0x1B, 0x5D, 0xFF, 0x42]) == "A")  // an OSC never ended
    }

    @Test func stripRemovesControlsOnly() {
        #expect(UntrustedText.strip("xterm\u{1B}\\(370)\u{2028}") == "xterm(370)")
        #expect(UntrustedText.strip("  keep spaces  ") == "  keep spaces  ")
        #expect(UntrustedText.strip(bytes: Array("WezTerm\u{07}".utf8)) == "WezTerm")
        for value in UInt32(0)...0x9F {
            let scalar = Unicode.Scalar(value)!
            let unsafe = value < 0x20 || value >= 0x7F
            #expect(UntrustedText.isUnsafe(scalar) == unsafe)
        }
    }

    /// Issue 21: format characters (Cf) and tag characters are invisible and take no column; they
    /// passed the sanitizer, so a caption of them passed any width check.
    @Test(arguments: [0x061C, 0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x206A, 0x206F,
                      0xFFF9, 0xFFFA, 0xFFFB, 0xE0001, 0xE0020, 0xE0041, 0xE007F, 0x00AD, 0x180E] as [UInt32])
    func formatAndTagCharactersAreDropped(value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        #expect(UntrustedText.isUnsafe(scalar))
        #expect(UntrustedText.strip("a" + String(Character(scalar)) + "b") == "ab")
    }

    /// Issue 29: a hostile reason phrase kept the printable rest of each stripped sequence
    /// ("404 Not [2J Found ]0;x"); whole sequences go now, in 7-bit and 8-bit forms.
    @Test func escapeSequencesGoWholeNotOnlyTheirESC() {
        #expect(UntrustedText.sanitize("404 Not\u{1B}[2J Found\u{1B}]0;x\u{07}") == "404 Not Found")
        #expect(UntrustedText.sanitize("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\b") == "alinkb")  // OSC 8, ST-ended
        #expect(UntrustedText.sanitize("a\u{1B}P1$r0m\u{1B}\\b\u{1B}_Gi=1;AAAA\u{1B}\\c") == "abc")    // DCS, APC
        #expect(UntrustedText.sanitize("a\u{1B}(Bb\u{1B}7c\u{1B}#8d") == "abcd")                      // two-byte forms
        #expect(UntrustedText.sanitize("a\u{9D}0;title\u{9C}b\u{90}q\u{9C}c") == "abc")              // 8-bit OSC, DCS
        #expect(UntrustedText.sanitize("a\u{1B}[31;1mred\u{1B}[0m b") == "ared b")
        // A sequence cut short by text ends there: the text stays.
        #expect(UntrustedText.sanitize("a\u{1B}[12é") == "aé")
        #expect(UntrustedText.strip("é\u{1B}漢") == "é漢")
    }

    /// Issue 30: default-ignorable code points outside Cf were invisible and passed.
    @Test(arguments: [0x034F, 0x115F, 0x3164, 0x17B4, 0xFE0F, 0xFE00, 0x180B, 0xFFA0] as [UInt32])
    func defaultIgnorableCodePointsAreDropped(value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        #expect(UntrustedText.isUnsafe(scalar))
        #expect(UntrustedText.strip("a" + String(Character(scalar)) + "b") == "ab")
    }

    @Test func aZeroWidthCaptionKeepsOnlyItsVisibleText() {
        let invisible = String(repeating: "\u{200B}\u{2063}\u{E0041}", count: 500)  // 5 KB of UTF-8
        #expect(invisible.utf8.count >= 5000)
        #expect(UntrustedText.strip("Sun" + invisible + "set") == "Sunset")
        #expect(UntrustedText.sanitize(invisible) == "")
        #expect(!UntrustedText.isUnsafe("é") && !UntrustedText.isUnsafe("\u{0301}") && !UntrustedText.isUnsafe("漢"))
    }
}
