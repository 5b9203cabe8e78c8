import SafeText
import Testing

@Suite struct UntrustedTextTests {
    @Test func sanitizeReplacesControlsTrimsAndCaps() {
        #expect(UntrustedText.sanitize("Not\u{1B}[2J Found\u{07}") == "Not [2J Found")
        #expect(UntrustedText.sanitize("\r\n  OK \t") == "OK")
        #expect(UntrustedText.sanitize("a\u{9B}31mb") == "a 31mb")  // 8-bit CSI
        #expect(UntrustedText.sanitize("x\u{202E}gnp.exe") == "x gnp.exe")  // bidi override
        #expect(UntrustedText.sanitize(String(repeating: "é", count: 600)).unicodeScalars.count == 512)
        #expect(UntrustedText.sanitize("abcdef", maxLength: 3) == "abc")
        #expect(UntrustedText.sanitize(bytes: [0x41, 0x1B, 0x5D, 0xFF, 0x42]) == "A ]\u{FFFD}B")
    }

    @Test func stripRemovesControlsOnly() {
        #expect(UntrustedText.strip("xterm\u{1B}\\(370)\u{2028}") == "xterm\\(370)")
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

    @Test func aZeroWidthCaptionKeepsOnlyItsVisibleText() {
        let invisible = String(repeating: "\u{200B}\u{2063}\u{E0041}", count: 500)  // 5 KB of UTF-8
        #expect(invisible.utf8.count >= 5000)
        #expect(UntrustedText.strip("Sun" + invisible + "set") == "Sunset")
        #expect(UntrustedText.sanitize(invisible) == "")
        #expect(!UntrustedText.isUnsafe("é") && !UntrustedText.isUnsafe("\u{0301}") && !UntrustedText.isUnsafe("漢"))
    }
}
