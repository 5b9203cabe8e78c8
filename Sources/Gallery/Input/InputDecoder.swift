import TerminalGraphics

/// Turns raw terminal input bytes into `InputEvent`s: UTF-8 characters, CSI/SS3 cursor and paging
/// keys (with or without modifiers), and SGR (1006) mouse reports. The bytes are read by the one
/// `VTTokenizer`; an unfinished sequence waits for more bytes, and a lone ESC is reported by `flush()`
/// once the caller's escape timeout expires. kitty graphics replies (`APC G … ; message ST`, sent for
/// errors only: placements ask `q=1`) become `.graphicsReply`. Pure and bounded (a sequence over 256
/// bytes is dropped).
public struct InputDecoder: Sendable {
    /// The longest escape sequence kept while waiting for its end (a kitty error reply with its
    /// message fits).
    public static let maximumSequenceLength = 256
    private var tokenizer = VTTokenizer(maximumLength: maximumSequenceLength)
    /// The bytes of an unfinished UTF-8 character.
    private var utf8: [UInt8] = []

    /// Creates a decoder.
    public init() {}

    /// Whether bytes of an unfinished sequence are waiting (the caller then waits a short escape
    /// timeout before calling `flush()`).
    public var hasPending: Bool { tokenizer.isInSequence || !utf8.isEmpty }

    /// Decodes `bytes`, returning every complete event.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        var events: [InputEvent] = []
        for token in tokenizer.feed(bytes) { handle(token, into: &events) }
        return events
    }

    /// Reports what is pending as plain keys (a lone ESC becomes `.key(.escape)`, an unfinished
    /// UTF-8 character is dropped) and clears it.
    public mutating func flush() -> [InputEvent] {
        utf8.removeAll()
        var events: [InputEvent] = []
        for token in tokenizer.flush() { handle(token, into: &events) }
        utf8.removeAll()
        return events
    }

    private mutating func handle(_ token: VTToken, into events: inout [InputEvent]) {
        switch token {
        case .text(let byte):
            text(byte, into: &events)
        case .escape(let next):
            // A lone Esc, or Alt+key: Esc, then the key.
            utf8.removeAll()
            events.append(.key(.escape))
            if let next { text(next, into: &events) }
        case .csi(let parameters, let final):
            utf8.removeAll()
            if let event = Self.csiEvent(body: parameters, final: final) { events.append(event) }
        case .ss3(let byte):
            utf8.removeAll()
            if let key = Self.ss3Key(byte) { events.append(.key(key)) }
        case .string(let introducer, let body):
            utf8.removeAll()
            if introducer == UInt8(ascii: "_"), body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) {
                let message = String(decoding: body[(semicolon + 1)...], as: UTF8.self)
                if message != "OK" { events.append(.graphicsReply(message)) }
            }
        case .osc:
            break
        }
    }

    /// One byte outside any sequence: a control key, or part of a UTF-8 character.
    private mutating func text(_ byte: UInt8, into events: inout [InputEvent]) {
        if !utf8.isEmpty {
            if byte & 0xC0 == 0x80 {
                utf8.append(byte)
                if utf8.count == Self.utf8Length(utf8[0]) {
                    if let scalar = Self.scalar(utf8) { events.append(.character(scalar)) }
                    utf8.removeAll()
                }
                return
            }
            utf8.removeAll()  // an unfinished character: dropped, the byte read on its own
        }
        switch byte {
        case 0x0D, 0x0A: events.append(.key(.enter))
        case 0x7F, 0x08: events.append(.key(.backspace))
        case 0x09: events.append(.key(.tab))
        case 0x00..<0x80: events.append(.character(Unicode.Scalar(byte)))
        case 0x80..<0xC2, 0xF5...0xFF: break  // stray or invalid UTF-8 byte
        default: utf8 = [byte]
        }
    }

    static func utf8Length(_ lead: UInt8) -> Int { lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }

    static func scalar(_ bytes: [UInt8]) -> Unicode.Scalar? {
        let lead = bytes[0]
        var value = UInt32(lead) & (bytes.count == 2 ? 0x1F : bytes.count == 3 ? 0x0F : 0x07)
        for byte in bytes.dropFirst() { value = value << 6 | UInt32(byte & 0x3F) }
        return Unicode.Scalar(value)
    }

    static func csiEvent(body: [UInt8], final: UInt8) -> InputEvent? {
        if body.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return mouseEvent(String(decoding: body.dropFirst(), as: UTF8.self), pressed: final == UInt8(ascii: "M"))
        }
        let params = String(decoding: body, as: UTF8.self).split(separator: ";").map { Int($0) }
        if body.isEmpty, final == UInt8(ascii: "I") || final == UInt8(ascii: "O") { return .focus(final == UInt8(ascii: "I")) }
        if final == UInt8(ascii: "t") {
            let reply = ProbeReplyParser.reply(csi: body, final: final)
            return reply.cellPixelSize != nil || reply.windowPixelSize != nil ? .cellSizeReply(reply) : nil
        }
        switch final {
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "~"):
            switch params.first ?? nil {
            case 1, 7: return .key(.home)
            case 4, 8: return .key(.end)
            case 5: return .key(.pageUp)
            case 6: return .key(.pageDown)
            case 2: return .key(.insert)
            case 3: return .key(.delete)
            default: return nil
            }
        default: return nil  // focus reports, unknown keys
        }
    }

    static func ss3Key(_ byte: UInt8) -> SpecialKey? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "M"): return .enter
        default: return nil
        }
    }

    static func mouseEvent(_ text: String, pressed: Bool) -> InputEvent? {
        let parts = text.split(separator: ";").compactMap { Int($0) }
        guard parts.count == 3, parts[1] >= 1, parts[2] >= 1 else { return nil }
        let code = parts[0]
        let button: MouseEvent.Button
        switch code & 0b1100_0011 {
        case 0: button = .left
        case 1: button = .middle
        case 2: button = .right
        case 64: button = .wheelUp
        case 65: button = .wheelDown
        default: button = .other
        }
        return .mouse(MouseEvent(button: button, pressed: pressed, motion: code & 32 != 0, column: parts[1] - 1, row: parts[2] - 1))
    }
}
