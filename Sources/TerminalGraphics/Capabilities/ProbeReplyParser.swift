import SafeText
import ImageCodecs

/// Parses a terminal's reply bytes to the capability probe. A pure function over bytes: stray
/// input (keys the user typed) is skipped, an incomplete trailing sequence is ignored, so the probe
/// can call it again as more bytes arrive.
public enum ProbeReplyParser {
    /// Parses every complete reply in `bytes` (through the one `VTTokenizer`).
    public static func parse(_ bytes: some Collection<UInt8>) -> ProbeReplies {
        var tokenizer = VTTokenizer()
        var replies = ProbeReplies()
        for token in tokenizer.feed(bytes) {
            switch token {
            case .csi(let parameters, let final): parseCSI(parameters, final: final, into: &replies)
            case .osc(let body): parseOSC(body, into: &replies)
            case .string(UInt8(ascii: "P"), let body): parseDCS(body, into: &replies)
            case .string(UInt8(ascii: "_"), let body): parseAPC(body, into: &replies)
            default: break
            }
        }
        return replies
    }

    /// The replies one CSI sequence carries (the input decoder hands over `CSI … t` replies that
    /// arrive after the probe, e.g. to a re-asked cell size).
    public static func reply(csi body: [UInt8], final: UInt8) -> ProbeReplies {
        var replies = ProbeReplies()
        parseCSI(body, final: final, into: &replies)
        return replies
    }

    static func parseCSI(_ body: [UInt8], final: UInt8, into r: inout ProbeReplies) {
        let isPrivate = body.first == UInt8(ascii: "?")
        let params = numbers(body.drop { $0 == UInt8(ascii: "?") }.prefix { (0x30...0x3B).contains($0) })
        let intermediates = body.filter { (0x20...0x2F).contains($0) }
        switch (isPrivate, intermediates, final) {
        case (true, [], UInt8(ascii: "c")):
            r.deviceAttributes = params
        case (true, [UInt8(ascii: "$")], UInt8(ascii: "y")) where params.count >= 2 && params[0] == 2026:
            r.syncOutputMode = params[1]
        case (false, [], UInt8(ascii: "t")) where params.count >= 3 && params[0] == 6:
            if PixelSize(width: params[2], height: params[1]).isPlausibleCell {
                r.cellPixelSize = PixelSize(width: params[2], height: params[1])
            }
        case (false, [], UInt8(ascii: "t")) where params.count >= 3 && params[0] == 4:
            if (1...65535).contains(params[1]) && (1...65535).contains(params[2]) {
                r.windowPixelSize = PixelSize(width: params[2], height: params[1])
            }
        case (true, [], UInt8(ascii: "S")) where params.count >= 4 && params[0] == 2 && params[1] == 0:
            // Less than 64×64 is no terminal's real limit (xterm's default is 1000×1000): not taken.
            if (64...65535).contains(params[2]) && (64...65535).contains(params[3]) {
                r.graphicsLimit = PixelSize(width: params[2], height: params[3])
            }
        default:
            break
        }
    }

    static func parseDCS(_ body: [UInt8], into r: inout ProbeReplies) {
        guard body.starts(with: Array(">|".utf8)) else { return }
        let text = UntrustedText.strip(bytes: body.dropFirst(2).prefix(128))
        if !text.isEmpty { r.terminalVersion = text }
    }

    static func parseAPC(_ body: [UInt8], into r: inout ProbeReplies) {
        guard body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) else { return }
        let keys = String(decoding: body[1..<semicolon], as: UTF8.self).split(separator: ",")
        guard keys.contains("i=31") else { return }
        r.kittyGraphics = body[(semicolon + 1)...].starts(with: Array("OK".utf8))
    }

    static func parseOSC(_ body: [UInt8], into r: inout ProbeReplies) {
        let text = String(decoding: body, as: UTF8.self)
        guard text.hasPrefix("11;") else { return }
        r.backgroundColor = parseXColor(String(text.dropFirst(3)))
    }

    /// Parses `rgb:R/G/B` with 1–4 hex digits per component (X11 colour syntax).
    static func parseXColor(_ spec: String) -> RGBColor? {
        guard spec.hasPrefix("rgb:") else { return nil }
        let parts = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var channels: [UInt8] = []
        for part in parts {
            // Hex digits only: Int(_:radix:) alone also takes a sign ("-f" would trap below).
            guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy(isHexDigit), let v = Int(part, radix: 16) else { return nil }
            let maxValue = (1 << (4 * part.utf8.count)) - 1
            channels.append(UInt8((v * 255 + maxValue / 2) / maxValue))
        }
        return RGBColor(r: channels[0], g: channels[1], b: channels[2])
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// Semicolon-separated decimal parameters; empty ones are 0, huge ones are clamped.
    static func numbers(_ bytes: some Sequence<UInt8>) -> [Int] {
        var result: [Int] = []
        var current = 0
        var any = false
        for byte in bytes {
            if byte == UInt8(ascii: ";") {
                result.append(current)
                current = 0
                any = true
            } else if (0x30...0x39).contains(byte) {
                current = min(current * 10 + Int(byte - 0x30), 1_000_000)
                any = true
            }
        }
        if any { result.append(current) }
        return result
    }
}
