import Foundation
import Zlib

/// One kitty graphics command (`ESC _ G keys ; payload ESC \`) parsed out of terminal output, for
/// byte-level tests of what the renderers and the frame writer emit.
public struct KittyCommand: Sendable, Hashable {
    /// The control keys (`a`, `i`, `p`, `m`, …).
    public var keys: [String: String]
    /// The payload after `;` (base64), empty when none.
    public var payload: [UInt8]
    /// Total bytes of the command on the wire.
    public var size: Int

    /// Every kitty command in `bytes`, in order (other bytes skipped).
    public static func parse(_ bytes: [UInt8]) -> [KittyCommand] {
        var result: [KittyCommand] = []
        var i = 0
        while i + 2 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "_"), bytes[i + 2] == UInt8(ascii: "G") else { i += 1; continue }
            var j = i + 3
            while j + 1 < bytes.count && !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
            let body = bytes[(i + 3)..<j]
            let semicolon = body.firstIndex(of: UInt8(ascii: ";")) ?? body.endIndex
            var keys: [String: String] = [:]
            for pair in String(decoding: body[body.startIndex..<semicolon], as: UTF8.self).split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
            }
            let payload = semicolon < body.endIndex ? Array(body[(semicolon + 1)...]) : []
            result.append(KittyCommand(keys: keys, payload: payload, size: j + 2 - i))
            i = j + 2
        }
        return result
    }

    /// The pixel data of the transmissions (`a=t`/`a=T` and their continuation chunks) in
    /// `commands`, keyed by image id: base64 joined, decoded, inflated when `o=z`.
    public static func transmitted(_ commands: [KittyCommand]) -> [UInt32: (keys: [String: String], data: [UInt8])] {
        var result: [UInt32: (keys: [String: String], data: [UInt8])] = [:]
        for sent in transmissions(commands) where sent.keys["a"] != "f" { result[sent.id] = (sent.keys, sent.data) }
        return result
    }

    /// Every transmission in `commands`, in order: images (`a=t`/`a=T`) and animation frames
    /// (`a=f`), each with its continuation chunks joined, decoded and inflated when `o=z`.
    public static func transmissions(_ commands: [KittyCommand]) -> [(id: UInt32, keys: [String: String], data: [UInt8])] {
        var result: [(id: UInt32, keys: [String: String], data: [UInt8])] = []
        var current: (id: UInt32, keys: [String: String], base64: [UInt8])?
        for command in commands {
            if let action = command.keys["a"], action == "t" || action == "T" || action == "f" {
                current = (UInt32(command.keys["i"] ?? "") ?? 0, command.keys, command.payload)
            } else if command.keys["a"] == nil, command.keys["m"] != nil, current != nil {
                current?.base64 += command.payload
            } else {
                continue
            }
            guard let open = current, command.keys["m"] != "1" else { continue }
            current = nil
            var data = Data(base64Encoded: Data(open.base64)).map { [UInt8]($0) } ?? []
            if open.keys["o"] == "z" {
                let width = Int(open.keys["s"] ?? "") ?? 0, height = Int(open.keys["v"] ?? "") ?? 0
                data = Zlib.inflate(data, capacity: width * height * 4) ?? []
            }
            result.append((open.id, open.keys, data))
        }
        return result
    }
}
