/// Wraps sequences so tmux forwards them to the outer terminal (`ESC P tmux; … ESC \`, every ESC
/// inside doubled). Needs `set -g allow-passthrough on` in tmux ≥ 3.3; tmux does not learn that the
/// cursor moved.
public enum TmuxPassthrough {
    /// The wrapped form of `bytes`.
    public static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        var out = EscapeSequence.dcsIntroducer("tmux;")
        out.reserveCapacity(bytes.count + bytes.count / 64 + 10)
        for byte in bytes {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += EscapeSequence.stringTerminator
        return out
    }

    /// The original bytes of a wrapped sequence, or nil when `bytes` is not one.
    public static func unwrap(_ bytes: [UInt8]) -> [UInt8]? {
        let prefix = EscapeSequence.dcsIntroducer("tmux;")
        guard bytes.starts(with: prefix), bytes.count >= prefix.count + 2,
            bytes.suffix(2).elementsEqual(EscapeSequence.stringTerminator)
        else { return nil }
        var out: [UInt8] = []
        var i = prefix.count
        let end = bytes.count - 2
        while i < end {
            if bytes[i] == 0x1B {
                guard i + 1 < end, bytes[i + 1] == 0x1B else { return nil }
                i += 1
            }
            out.append(bytes[i])
            i += 1
        }
        return out
    }
}
