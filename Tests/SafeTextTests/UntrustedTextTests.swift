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
}
