import Testing
import TerminalGraphics

@Suite struct VTTokenizerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func everyKindOfSequenceInOneStream() {
        var tokenizer = VTTokenizer()
        let stream = Self.bytes("a\u{1B}[?62;4c\u{1B}]11;rgb:0/0/0\u{07}\u{1B}P>|XTerm(388)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}OA\u{1B}x\r")
        #expect(tokenizer.feed(stream) == [
            .text(UInt8(ascii: "a")),
            .csi(parameters: Self.bytes("?62;4"), final: UInt8(ascii: "c")),
            .osc(Self.bytes("11;rgb:0/0/0")),
            .string(introducer: UInt8(ascii: "P"), body: Self.bytes(">|XTerm(388)")),
            .string(introducer: UInt8(ascii: "_"), body: Self.bytes("Gi=31;OK")),
            .ss3(UInt8(ascii: "A")),
            .escape(UInt8(ascii: "x")),
            .text(0x0D),
        ])
        #expect(!tokenizer.isInSequence)
    }

    @Test func aSequenceSplitAcrossReadsCompletesLater() {
        let stream = Self.bytes("\u{1B}[6;20;10t\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\")
        for split in 0...stream.count {
            var tokenizer = VTTokenizer()
            let tokens = tokenizer.feed(stream[..<split]) + tokenizer.feed(stream[split...])
            #expect(tokens == [.csi(parameters: Self.bytes("6;20;10"), final: UInt8(ascii: "t")), .osc(Self.bytes("11;rgb:ffff/ffff/ffff"))], "split at \(split)")
        }
    }

    @Test func loneEscapesAndUnfinishedSequencesFlushAsKeys() {
        var tokenizer = VTTokenizer()
        #expect(tokenizer.feed([0x1B]) == [])
        #expect(tokenizer.isInSequence)
        #expect(tokenizer.flush() == [.escape(nil)])
        #expect(tokenizer.feed([0x1B, 0x1B]) == [.escape(nil)])
        #expect(tokenizer.flush() == [.escape(nil)])
        #expect(tokenizer.feed(Self.bytes("\u{1B}[12")) == [])
        #expect(tokenizer.flush() == [.escape(nil), .text(UInt8(ascii: "[")), .text(UInt8(ascii: "1")), .text(UInt8(ascii: "2"))])
        #expect(!tokenizer.isInSequence)
    }

    @Test func malformedAndOversizedSequencesAreDroppedAndTheStreamRecovers() {
        var tokenizer = VTTokenizer(maximumLength: 16)
        // A control byte inside a CSI ends it unfinished; the byte is read again.
        #expect(tokenizer.feed(Self.bytes("\u{1B}[12\rq")) == [.text(0x0D), .text(UInt8(ascii: "q"))])
        // An endless CSI is read to its final byte and dropped: none of it is text.
        let endless = Self.bytes("\u{1B}[") + [UInt8](repeating: UInt8(ascii: "1"), count: 40) + Self.bytes("q")
        #expect(tokenizer.feed(endless) == [])
        #expect(tokenizer.feed(Self.bytes("j")) == [.text(UInt8(ascii: "j"))])
        // A long string sequence (sixel data) is read to its end and dropped; the next reply is whole.
        let sixel = Self.bytes("\u{1B}Pq") + [UInt8](repeating: UInt8(ascii: "~"), count: 500) + Self.bytes("\u{1B}\\\u{1B}[0n")
        #expect(tokenizer.feed(sixel) == [.csi(parameters: Self.bytes("0"), final: UInt8(ascii: "n"))])
        // ESC inside a string ends it and starts the next sequence.
        #expect(tokenizer.feed(Self.bytes("\u{1B}]11;x\u{1B}[c")) == [.osc(Self.bytes("11;x")), .csi(parameters: [], final: UInt8(ascii: "c"))])
    }

    /// A reply is never keys: a string sequence (OSC, DCS, APC) outlives the escape timeout's flushes
    /// while its bytes come slowly (a 1 MB OSC 11 reply, read in pieces), up to `stringPatience`
    /// flushes in a row; an ESC before its ST counts as the ST.
    @Test func aSlowStringSequenceOutlivesFlushesAndIsNeverText() {
        var tokenizer = VTTokenizer(maximumLength: 16, stringPatience: 3)
        #expect(tokenizer.feed(Self.bytes("\u{1B}]11;rgb:")) == [])
        #expect(tokenizer.flush() == [])
        #expect(tokenizer.flush() == [])
        #expect(tokenizer.isInSequence)
        var reply: [VTToken] = []
        for _ in 0..<1000 {
            reply += tokenizer.feed(Self.bytes("qqqq/"))
            reply += tokenizer.flush()
        }
        reply += tokenizer.feed(Self.bytes("\u{1B}\\j"))
        #expect(reply == [.text(UInt8(ascii: "j"))], "only the key after the reply")
        // Silence: dropped after `stringPatience` flushes, and what follows is read as it is.
        _ = tokenizer.feed(Self.bytes("\u{1B}_Gi=1;ENOENT"))
        #expect(tokenizer.flush() == [] && tokenizer.flush() == [] && tokenizer.flush() == [])
        #expect(!tokenizer.isInSequence)
        #expect(tokenizer.feed(Self.bytes("k")) == [.text(UInt8(ascii: "k"))])
        // An ESC that may start the ST ends the string at the flush.
        _ = tokenizer.feed(Self.bytes("\u{1B}]11;x\u{1B}"))
        #expect(tokenizer.flush() == [.osc(Self.bytes("11;x"))])
        #expect(!tokenizer.isInSequence)
    }
}
