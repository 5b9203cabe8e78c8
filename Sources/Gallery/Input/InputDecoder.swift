/// Turns raw terminal input bytes into `InputEvent`s: UTF-8 characters, CSI/SS3 cursor and paging
/// keys (with or without modifiers), and SGR (1006) mouse reports. Bytes of an unfinished sequence
/// are kept until more arrive; a lone ESC is reported by `flush()` once the caller's escape timeout
/// expires. Pure and bounded (an endless bogus sequence is dropped after 64 bytes).
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The longest escape sequence kept while waiting for its end.
    public static let maximumSequenceLength = 64

    /// Creates a decoder.
    public init() {}

    /// Whether bytes of an unfinished sequence are waiting (the caller then waits a short escape
    /// timeout before calling `flush()`).
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes`, returning every complete event.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var index = 0
        while index < pending.count {
            let result = Self.decode(pending, from: index)
            switch result {
            case .incomplete:
                if pending.count - index > Self.maximumSequenceLength { index = pending.count; continue }
                pending.removeFirst(index)
                return events
            case .event(let event, let length):
                if let event { events.append(event) }
                index += length
            }
        }
        pending.removeAll()
        return events
    }

    /// Reports what is pending as plain keys (a lone ESC becomes `.key(.escape)`, an unfinished
    /// UTF-8 character is dropped) and clears it.
    public mutating func flush() -> [InputEvent] {
        let bytes = pending
        pending.removeAll()
        guard bytes.first == 0x1B else { return [] }
        var rest = InputDecoder()
        return [.key(.escape)] + rest.feed(bytes.dropFirst()) + rest.flush()
    }

    enum Step { case incomplete, event(InputEvent?, length: Int) }

    static func decode(_ bytes: [UInt8], from start: Int) -> Step {
        let first = bytes[start]
        switch first {
        case 0x1B:
            guard start + 1 < bytes.count else { return .incomplete }
            let second = bytes[start + 1]
            if second == UInt8(ascii: "[") { return decodeCSI(bytes, from: start) }
            if second == UInt8(ascii: "O") {
                guard start + 2 < bytes.count else { return .incomplete }
                return .event(ss3Key(bytes[start + 2]).map { .key($0) }, length: 3)
            }
            if second == 0x1B { return .event(.key(.escape), length: 1) }
            return .event(.key(.escape), length: 1)  // Alt+key: Esc, then the key on the next step
        case 0x0D, 0x0A: return .event(.key(.enter), length: 1)
        case 0x7F, 0x08: return .event(.key(.backspace), length: 1)
        case 0x09: return .event(.key(.tab), length: 1)
        case 0x00..<0x20: return .event(.character(Unicode.Scalar(first)), length: 1)
        case 0x80..<0xC2, 0xF5...0xFF: return .event(nil, length: 1)  // stray or invalid UTF-8 byte
        default: return decodeUTF8(bytes, from: start)
        }
    }

    static func decodeUTF8(_ bytes: [UInt8], from start: Int) -> Step {
        let first = bytes[start]
        let length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4
        guard start + length <= bytes.count else { return .incomplete }
        var value = UInt32(first) & (length == 1 ? 0x7F : length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<max(1, length) {
            let byte = bytes[start + offset]
            guard byte & 0xC0 == 0x80 else { return .event(nil, length: offset) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return .event(Unicode.Scalar(value).map { .character($0) }, length: length)
    }

    static func decodeCSI(_ bytes: [UInt8], from start: Int) -> Step {
        var index = start + 2
        while index < bytes.count {
            let byte = bytes[index]
            if (0x40...0x7E).contains(byte) {
                let body = Array(bytes[(start + 2)..<index])
                return .event(csiEvent(body: body, final: byte), length: index - start + 1)
            }
            guard (0x20...0x3F).contains(byte) else { return .event(nil, length: index - start) }
            index += 1
        }
        return .incomplete
    }

    static func csiEvent(body: [UInt8], final: UInt8) -> InputEvent? {
        if body.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            return mouseEvent(String(decoding: body.dropFirst(), as: UTF8.self), pressed: final == UInt8(ascii: "M"))
        }
        let params = String(decoding: body, as: UTF8.self).split(separator: ";").map { Int($0) }
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
