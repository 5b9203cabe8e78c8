import TerminalGraphics

/// Follows a program's output byte by byte (escape sequences split across reads included) and answers
/// the queries an xterm would answer, as an xterm 388 with sixel and `columns`×`rows` cells of
/// `cellWidth`×`cellHeight` pixels. Everything else (SGR, text, sixel and kitty data) is skipped.
struct TerminalQueryParser {
    let columns: Int
    let rows: Int
    let cellWidth: Int
    let cellHeight: Int
    /// Queries answered (printable form) with their counts, in order of first appearance.
    private(set) var seen: [(String, Int)] = []

    /// The one terminal stream reader (bodies over 64 bytes — sixel and kitty data — are dropped).
    private var tokenizer = VTTokenizer(maximumLength: 64)

    init(columns: Int, rows: Int, cellWidth: Int, cellHeight: Int) {
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    /// Reads `bytes`; returns the replies they call for (empty for none).
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var reply: [UInt8] = []
        for token in tokenizer.feed(bytes) {
            switch token {
            case .csi(let parameters, let final): reply += answerCSI(String(decoding: parameters, as: UTF8.self), final: final)
            case .osc(let body): reply += answerOSC(String(decoding: body, as: UTF8.self), terminator: [0x1b, 0x5c])
            case .string(let introducer, let body): reply += answerString(introducer: introducer, String(decoding: body, as: UTF8.self))
            case .text, .escape, .ss3: break
            }
        }
        return reply
    }

    private mutating func note(_ query: String) {
        if let i = seen.firstIndex(where: { $0.0 == query }) { seen[i].1 += 1 } else { seen.append((query, 1)) }
    }

    private mutating func answerCSI(_ parameters: String, final: UInt8) -> [UInt8] {
        let answer: String?
        switch (parameters, Character(UnicodeScalar(final))) {
        case ("", "c"), ("0", "c"): answer = "\u{1b}[?62;4;22c"                     // DA1: VT220, sixel
        case (">", "c"), (">0", "c"): answer = "\u{1b}[>41;388;0c"                  // DA2: xterm 388
        case (">", "q"), (">0", "q"): answer = "\u{1b}P>|XTerm(388)\u{1b}\\"        // XTVERSION
        case ("14", "t"): answer = "\u{1b}[4;\(rows * cellHeight);\(columns * cellWidth)t"
        case ("16", "t"): answer = "\u{1b}[6;\(cellHeight);\(cellWidth)t"
        case ("18", "t"): answer = "\u{1b}[8;\(rows);\(columns)t"
        case ("6", "n"): answer = "\u{1b}[1;1R"
        case ("?6", "n"): answer = "\u{1b}[?1;1;1R"
        case ("5", "n"): answer = "\u{1b}[0n"
        case ("?u", _) where final == UInt8(ascii: "u"): answer = nil              // kitty keyboard: not supported
        default:
            if final == UInt8(ascii: "p"), parameters.hasPrefix("?"), parameters.hasSuffix("$") {
                // DECRQM: report every private mode as not recognised.
                answer = "\u{1b}[\(parameters.dropLast());0$y"
            } else {
                return []
            }
        }
        note("CSI \(parameters) \(Character(UnicodeScalar(final)))")
        return Array((answer ?? "").utf8)
    }

    private mutating func answerOSC(_ text: String, terminator: [UInt8]) -> [UInt8] {
        let colours = ["10;?": "10;rgb:ffff/ffff/ffff", "11;?": "11;rgb:0000/0000/0000"]
        guard let colour = colours[text] else { return [] }
        note("OSC \(text)")
        return Array("\u{1b}]\(colour)".utf8) + terminator
    }

    private mutating func answerString(introducer: UInt8, _ text: String) -> [UInt8] {
        // Only note queries (a kitty graphics query, XTGETTCAP); xterm answers neither of them: DA1,
        // which follows them, is the sentinel programs wait for.
        if introducer == UInt8(ascii: "_"), text.hasPrefix("G"), text.contains("a=q") { note("APC G…a=q (kitty query, no reply)") }
        if introducer == UInt8(ascii: "P"), text.hasPrefix("+q") { note("DCS +q (XTGETTCAP, no reply)") }
        return []
    }
}
