/// Splits a byte stream into text (everything libvterm parses: characters, C0, ESC, CSI, OSC) and
/// the control strings the image layer interprets: DCS (`ESC P … ESC \`: sixel) and APC
/// (`ESC _ … ESC \`: kitty graphics). libvterm 0.1 keeps only a short prefix of a DCS and drops
/// APC, so they never reach it. 7-bit introducers only (sdgallery writes no C1 bytes). Inside a
/// string `ESC ESC` stands for one ESC (tmux passthrough). Sequences may be split across feeds.
struct ControlStringSplitter {
    enum Piece: Equatable {
        case text([UInt8])
        case dcs([UInt8])
        case apc([UInt8])
    }

    private enum State {
        case ground
        case escape
        case string(dcs: Bool)
        case stringEscape(dcs: Bool)
    }

    private var state = State.ground
    private var body: [UInt8] = []

    mutating func feed(_ bytes: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { pieces.append(.text(text)) }
            text.removeAll()
        }
        for byte in bytes {
            switch state {
            case .ground:
                if byte == 0x1B { state = .escape } else { text.append(byte) }
            case .escape:
                if byte == UInt8(ascii: "P") || byte == UInt8(ascii: "_") {
                    flushText()
                    body.removeAll(keepingCapacity: true)
                    state = .string(dcs: byte == UInt8(ascii: "P"))
                } else if byte == 0x1B {
                    text.append(0x1B)  // ESC ESC: the first one is a lone ESC
                } else {
                    text += [0x1B, byte]
                    state = .ground
                }
            case .string(let dcs):
                if byte == 0x1B { state = .stringEscape(dcs: dcs) } else { body.append(byte) }
            case .stringEscape(let dcs):
                if byte == UInt8(ascii: "\\") {
                    pieces.append(dcs ? .dcs(body) : .apc(body))
                    body.removeAll(keepingCapacity: true)
                    state = .ground
                } else if byte == 0x1B {
                    body.append(0x1B)
                    state = .string(dcs: dcs)
                } else {
                    body += [0x1B, byte]
                    state = .string(dcs: dcs)
                }
            }
        }
        flushText()
        return pieces
    }
}
