import Foundation
import ImageCodecs
import Testing
@testable import TerminalGraphics

/// Splits kitty output into APC commands: (keys, payload).
func kittyCommands(_ bytes: [UInt8]) -> [(keys: [String: String], payload: [UInt8])] {
    var result: [(keys: [String: String], payload: [UInt8])] = []
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
        result.append((keys, payload))
        i = j + 2
    }
    return result
}

@Suite struct KittyRendererTests {
    let cell = CellPixelSize(width: 10, height: 20)

    /// Reassembles the transmitted pixels from the chunked base64 payload.
    func transmittedPixels(_ bytes: [UInt8]) -> (keys: [String: String], pixels: [UInt8])? {
        let commands = kittyCommands(bytes).filter { $0.keys["a"] != "p" }
        guard let first = commands.first else { return nil }
        let base64 = commands.flatMap(\.payload)
        guard let data = Data(base64Encoded: Data(base64)) else { return nil }
        return (first.keys, Array(data))
    }

    @Test func rawRGBARoundTripsExactly() throws {
        // Not opaque → RGBA: 38 400 bytes → 51 200 base64 → 13 chunks.
        var pixels = TestImages.photo(width: 120, height: 80).pixels
        pixels[3] = 0
        let image = Image(width: 120, height: 80, pixels: pixels)
        let out = try KittyRenderer().render(image, cells: CellSize(columns: 12, rows: 4), cellPixelSize: cell)
        let commands = kittyCommands(out.bytes)
        #expect(commands.count == 14)
        #expect(commands.allSatisfy { $0.payload.count <= 4096 })
        #expect(commands.dropLast(2).allSatisfy { $0.keys["m"] == "1" })
        #expect(commands[commands.count - 2].keys["m"] == "0")
        let (keys, sent) = try #require(transmittedPixels(out.bytes))
        #expect(keys["a"] == "t" && keys["f"] == "32" && keys["s"] == "120" && keys["v"] == "80")
        #expect(keys["i"] == String(try #require(out.kittyImageID)))
        #expect(sent == image.pixels)
        let place = try #require(commands.last)
        #expect(place.keys["a"] == "p" && place.keys["c"] == "12" && place.keys["r"] == "4" && place.keys["i"] == keys["i"])
        #expect(out.placement == KittyRenderer.command(
            "a=p,i=\(keys["i"] ?? ""),p=1,c=12,r=4,C=1,q=2", payload: []))
    }

    @Test func scaledOutputMatchesScaler() throws {
        let image = TestImages.photo(width: 300, height: 200)
        let out = try KittyRenderer().render(image, cells: CellSize(columns: 8, rows: 3), cellPixelSize: cell)
        #expect(out.pixelSize == PixelSize(width: 80, height: 53))
        let (keys, sent) = try #require(transmittedPixels(out.bytes))
        // Opaque → RGB (f=24): the scaled pixels without their alpha bytes.
        #expect(keys["f"] == "24")
        let scaled = PixelScaler.rgba(image, size: PixelSize(width: 80, height: 53))
        #expect(sent == scaled.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))
    }

    @Test func sessionTransmitsOnceThenPlaces() throws {
        let out = try KittyRenderer().render(TestImages.photo(width: 20, height: 20), cells: CellSize(columns: 2, rows: 1), cellPixelSize: cell)
        var session = KittySession()
        #expect(session.output(for: out) == out.bytes)
        #expect(session.output(for: out) == out.placement)
        let id = try #require(out.kittyImageID)
        #expect(session.scrolledAway(out) == bytes("\u{1B}_Ga=d,d=i,i=\(id),q=2\u{1B}\\"))
        #expect(session.evict(imageID: id) == bytes("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"))
        #expect(session.output(for: out) == out.bytes)
    }

    @Test func tmuxPassthroughWrapsEveryCommand() throws {
        let image = TestImages.photo(width: 80, height: 60)
        let plain = try KittyRenderer().render(image, cells: CellSize(columns: 8, rows: 3), cellPixelSize: cell)
        let wrapped = try KittyRenderer(tmuxPassthrough: true).render(image, cells: CellSize(columns: 8, rows: 3), cellPixelSize: cell)
        let prefix = bytes("\u{1B}Ptmux;")
        #expect(wrapped.bytes.starts(with: prefix))
        // Unwrap piece by piece: each passthrough ends with the single ESC \ after a doubled one.
        var unwrapped: [UInt8] = []
        var rest = ArraySlice(wrapped.bytes)
        while !rest.isEmpty {
            var end = rest.startIndex + prefix.count
            while end + 1 < rest.endIndex {
                if rest[end] == 0x1B && rest[end + 1] == 0x1B { end += 2; continue }
                if rest[end] == 0x1B && rest[end + 1] == UInt8(ascii: "\\") { break }
                end += 1
            }
            unwrapped += try #require(TmuxPassthrough.unwrap(Array(rest[rest.startIndex..<(end + 2)])))
            rest = rest[(end + 2)...]
        }
        #expect(unwrapped == plain.bytes)
    }

    @Test func idsAreStableAndNonZero() {
        let image = TestImages.photo(width: 4, height: 4)
        let a = KittyRenderer.imageID(for: image, size: PixelSize(width: 4, height: 4))
        #expect(a != 0 && a == KittyRenderer.imageID(for: image, size: PixelSize(width: 4, height: 4)))
        #expect(a != KittyRenderer.imageID(for: image, size: PixelSize(width: 2, height: 2)))
    }
}
