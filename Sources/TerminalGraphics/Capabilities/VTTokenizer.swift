/// One piece of a terminal byte stream.
public enum VTToken: Sendable, Hashable {
    /// A byte outside any sequence: printable ASCII, a UTF-8 byte, or a C0 control other than ESC.
    case text(UInt8)
    /// ESC followed by a byte that starts no sequence (Alt+key arrives as `ESC key`); nil: a lone ESC
    /// (`flush()`, or ESC followed by another ESC).
    case escape(UInt8?)
    /// `ESC [` parameters (the bytes 0x20–0x3F: private markers, digits, `;`, intermediates) and the
    /// final byte (0x40–0x7E).
    case csi(parameters: [UInt8], final: UInt8)
    /// `ESC O` and one byte (application cursor keys).
    case ss3(UInt8)
    /// `ESC ]` … ended by BEL or ST: the body.
    case osc([UInt8])
    /// A string sequence ended by ST: `P` (DCS), `_` (APC), `^` (PM) or `X` (SOS), and its body.
    case string(introducer: UInt8, body: [UInt8])
}

/// The one reader of terminal byte streams (ECMA-48 / VT500 shape), used for the probe's replies, the
/// keyboard and the benchmark's answering terminal. A streaming state machine: a sequence split
/// across reads completes on a later `feed`. A sequence longer than `maximumLength` (a string: OSC,
/// DCS, APC…, or a CSI) is read to its end and dropped, never read as text (a 1 MB OSC 11 reply's
/// letters quit the gallery); a control byte or a byte over 0x7F inside a CSI ends it unfinished and
/// is read again. A string sequence is a reply (no key starts one): `flush()` keeps it waiting for
/// its end, for `stringPatience` flushes in a row.
///
/// ```swift
/// var tokenizer = VTTokenizer()
/// for token in tokenizer.feed(bytes) {
///     if case .csi(let parameters, let final) = token { … }
/// }
/// ```
public struct VTTokenizer: Sendable {
    private enum State: Sendable { case ground, escape, csi, ss3, string, stringEscape }

    /// The longest sequence body kept; longer ones are dropped.
    public let maximumLength: Int
    /// Flushes in a row an unfinished string sequence outlives (32: about 1 s of silence at the
    /// gallery's 30 ms escape timeout); then it is dropped.
    public let stringPatience: Int
    private var state = State.ground
    private var body: [UInt8] = []
    private var introducer: UInt8 = 0
    private var overflowed = false
    private var flushesInString = 0

    /// Creates a tokenizer that keeps sequence bodies of at most `maximumLength` bytes.
    public init(maximumLength: Int = 256, stringPatience: Int = 32) {
        self.maximumLength = maximumLength
        self.stringPatience = stringPatience
    }

    /// Whether the bytes read so far end inside a sequence (a lone ESC included).
    public var isInSequence: Bool { state != .ground }

    /// Reads `bytes` and returns every token they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [VTToken] {
        var tokens: [VTToken] = []
        for byte in bytes { step(byte, into: &tokens) }
        return tokens
    }

    /// Ends an unfinished sequence: a lone ESC, or ESC and what followed it as text (the keyboard's
    /// Esc key followed by other keys). An unfinished string sequence goes on waiting for its end
    /// (nothing returned) until `stringPatience` flushes in a row, then is dropped; one whose ESC
    /// has come is taken as ended by ST, and given.
    public mutating func flush() -> [VTToken] {
        switch state {
        case .string:
            flushesInString += 1
            if flushesInString >= stringPatience { reset() }
            return []
        case .stringEscape:
            var tokens: [VTToken] = []
            endString(into: &tokens)
            return tokens
        default: break
        }
        defer { reset() }
        switch state {
        case .ground, .string, .stringEscape: return []
        case .escape: return [.escape(nil)]
        case .ss3: return [.escape(UInt8(ascii: "O"))]
        case .csi where overflowed: return []
        case .csi: return [.escape(nil), .text(UInt8(ascii: "["))] + body.map { .text($0) }
        }
    }

    private mutating func reset() {
        state = .ground
        body.removeAll(keepingCapacity: true)
        overflowed = false
        flushesInString = 0
    }

    private mutating func collect(_ byte: UInt8) {
        if body.count < maximumLength { body.append(byte) } else { overflowed = true }
    }

    private mutating func step(_ byte: UInt8, into tokens: inout [VTToken]) {
        switch state {
        case .ground:
            if byte == 0x1B { reset(); state = .escape } else { tokens.append(.text(byte)) }
        case .escape:
            switch byte {
            case UInt8(ascii: "["): state = .csi
            case UInt8(ascii: "O"): state = .ss3
            case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                introducer = byte
                state = .string
            case 0x1B: tokens.append(.escape(nil))  // ESC ESC: the first is alone
            default:
                tokens.append(.escape(byte))
                reset()
            }
        case .ss3:
            tokens.append(.ss3(byte))
            reset()
        case .csi:
            if (0x20...0x3F).contains(byte) {
                collect(byte)
            } else if (0x40...0x7E).contains(byte) {
                if !overflowed { tokens.append(.csi(parameters: body, final: byte)) }
                reset()
            } else {
                reset()  // malformed: the sequence is dropped, the byte read again
                step(byte, into: &tokens)
            }
        case .string:
            flushesInString = 0
            if byte == 0x1B {
                state = .stringEscape
            } else if byte == 0x07 && introducer == UInt8(ascii: "]") {
                endString(into: &tokens)
            } else {
                collect(byte)
            }
        case .stringEscape:
            // ST is ESC \; any other ESC ends the string too, and starts what follows it.
            endString(into: &tokens)
            if byte != UInt8(ascii: "\\") {
                state = .escape
                step(byte, into: &tokens)
            }
        }
    }

    private mutating func endString(into tokens: inout [VTToken]) {
        if !overflowed {
            tokens.append(introducer == UInt8(ascii: "]") ? .osc(body) : .string(introducer: introducer, body: body))
        }
        reset()
    }
}
