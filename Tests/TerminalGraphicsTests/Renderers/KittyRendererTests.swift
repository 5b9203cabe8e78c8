import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import TerminalGraphics

/// Splits kitty output into APC commands: (keys, payload).
func kittyCommands(_ bytes: [UInt8]) -> [(keys: [String: String], payload: [UInt8])] {
    KittyCommand.parse(bytes).map { ($0.keys, $0.payload) }
}

@Suite struct KittyRendererTests {
    let cell = PixelSize(width: 10, height: 20)

    /// Reassembles the transmitted pixels from the chunked base64 payload (inflated when `o=z`).
    func transmittedPixels(_ bytes: [UInt8]) -> (keys: [String: String], pixels: [UInt8])? {
        KittyCommand.transmitted(KittyCommand.parse(bytes)).values.first.map { ($0.keys, $0.data) }
    }

    @Test func rgbaIsCompressedChunkedAndQuietAndInflatesExactly() throws {
        // Not opaque → RGBA; noise so the deflated payload still needs many chunks.
        var pixels = TestImages.photo(width: 120, height: 80).pixels
        var state: UInt64 = 1
        for i in pixels.indices where i % 4 != 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        pixels[3] = 0
        let image = Image(width: 120, height: 80, pixels: pixels)
        let out = try KittyRenderer().render(image, cells: CellSize(columns: 12, rows: 4), cellPixelSize: cell)
        let commands = KittyCommand.parse(out.bytes)
        let transmit = commands.dropLast()
        #expect(transmit.count > 2)
        #expect(commands.allSatisfy { $0.payload.count <= 4096 && $0.keys["q"] == "2" })
        #expect(transmit.dropLast().allSatisfy { $0.keys["m"] == "1" })
        #expect(transmit.last?.keys["m"] == "0")
        #expect(out.upload.map { KittyCommand.parse($0.bytes) } == Array(transmit))
        let (keys, sent) = try #require(transmittedPixels(out.bytes))
        #expect(keys["a"] == "t" && keys["f"] == "32" && keys["o"] == "z" && keys["s"] == "120" && keys["v"] == "80")
        #expect(keys["i"] == String(try #require(out.upload?.id)))
        #expect(sent == image.pixels)
        let place = try #require(commands.last)
        #expect(place.keys["a"] == "p" && place.keys["c"] == "12" && place.keys["r"] == "4" && place.keys["i"] == keys["i"])
        #expect(Array(out.bytes.suffix(from: out.upload?.bytes.count ?? 0)) == KittyRenderer.command(
            "a=p,i=\(keys["i"] ?? ""),p=1,c=12,r=4,C=1,q=2", payload: []))
    }

    @Test func scaledOutputMatchesScaler() throws {
        let image = TestImages.photo(width: 300, height: 200)
        let out = try KittyRenderer().render(image, cells: CellSize(columns: 8, rows: 3), cellPixelSize: cell)
        #expect(out.pixelSize == PixelSize(width: 80, height: 53))
        let (keys, sent) = try #require(transmittedPixels(out.bytes))
        // Opaque → RGB (f=24): the scaled pixels without their alpha bytes.
        #expect(keys["f"] == "24")
        let scaled = image.pixels(scaledTo: PixelSize(width: 80, height: 53))
        #expect(sent == scaled.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))
    }

    /// An animation kitty plays itself (issue 32): its first frame transmitted as a still is, under
    /// an id of its own, its gap set on frame 1 (`a=a,r=1,z`), every further frame added with `a=f`
    /// and its gap (a GIF delay of 0 shows for 100 ms, as the gallery's players show it); the loop
    /// count rides on the upload for the session's play command.
    @Test func anAnimationIsEveryFrameOnceWithItsGaps() throws {
        let colours: [[UInt8]] = [[200, 10, 10, 255], [10, 200, 10, 255], [10, 10, 200, 255]]
        let durations = [0.05, 0, 0.2]
        let frames = zip(colours, durations).map { c, d in ImageFrame(pixels: Array((0..<(30 * 20)).map { _ in c }.joined()), duration: d) }
        let image = Image(width: 30, height: 20, pixels: frames[0].pixels, frames: frames, loopCount: 2)
        let out = try KittyRenderer().renderAnimation(image, cells: CellSize(columns: 3, rows: 1), cellPixelSize: cell)
        let upload = try #require(out.upload)
        #expect(upload.animationLoops == 2)
        let still = try KittyRenderer().render(image, cells: CellSize(columns: 3, rows: 1), cellPixelSize: cell)
        #expect(still.upload?.id != upload.id && still.upload?.animationLoops == nil, "the still keeps an id of its own")
        let commands = KittyCommand.parse(upload.bytes)
        let sent = KittyCommand.transmissions(commands)
        #expect(sent.map { $0.keys["a"] } == ["t", "f", "f"])
        #expect(sent.allSatisfy { $0.id == upload.id && $0.keys["f"] == "24" })
        #expect(sent.map(\.data) == colours.map { c in Array((0..<(30 * 20)).map { _ in c.prefix(3) }.joined()) })
        #expect(sent.dropFirst().map { $0.keys["z"] } == ["100", "200"])
        #expect(commands.contains { $0.keys == ["a": "a", "i": "\(upload.id)", "r": "1", "z": "50", "q": "2"] })
        #expect(commands.allSatisfy { $0.keys["q"] == "2" })
        // The session sends it once, then plays it; paused, it stands on its first frame.
        var session = KittySession()
        let first = session.upload(upload)
        #expect(first.starts(with: upload.bytes))
        #expect(Array(first.dropFirst(upload.bytes.count)) == bytes("\u{1B}_Ga=a,i=\(upload.id),s=3,v=3,q=2\u{1B}\\"))
        #expect(session.upload(upload).isEmpty)
        #expect(session.setAnimationsPlay(false) == bytes("\u{1B}_Ga=a,i=\(upload.id),s=1,c=1,q=2\u{1B}\\"))
        #expect(session.setAnimationsPlay(false).isEmpty, "only a change is sent")
        _ = session.free([upload.id])
        #expect(session.setAnimationsPlay(true).isEmpty, "a freed animation is not played")
        // Uploaded while paused, it stays on its first frame.
        var paused = KittySession()
        _ = paused.setAnimationsPlay(false)
        #expect(Array(paused.upload(upload).dropFirst(upload.bytes.count)) == bytes("\u{1B}_Ga=a,i=\(upload.id),s=1,c=1,q=2\u{1B}\\"))
    }

    @Test func sessionTransmitsOnceThenPlaces() throws {
        let out = try KittyRenderer().render(TestImages.photo(width: 20, height: 20), cells: CellSize(columns: 2, rows: 1), cellPixelSize: cell)
        let id = try #require(out.upload?.id)
        var session = KittySession()
        #expect(session.evict(imageID: id) == bytes("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"))
        // The frame writer's path: upload once, free on eviction, clear everything on close.
        var ledger = KittySession()
        let upload = try #require(out.upload?.bytes)
        #expect(ledger.upload(id: id, bytes: upload) == upload)
        #expect(ledger.upload(id: id, bytes: upload).isEmpty)
        #expect(ledger.free([id, id &+ 1]) == bytes("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"))
        #expect(ledger.upload(id: id, bytes: upload) == upload)
        ledger.reset()
        #expect(ledger.close() == bytes("\u{1B}_Ga=d,d=A,q=2\u{1B}\\"))
        #expect(ledger.close().isEmpty)
    }

    @Test func eachCellHasItsOwnPlacementAndDeleteKeepsTheData() {
        let a = KittyRenderer.placementID(column: 0, row: 0)
        let b = KittyRenderer.placementID(column: 20, row: 0)
        let c = KittyRenderer.placementID(column: 0, row: 7)
        #expect(Set([a, b, c]).count == 3 && !Set([a, b, c]).contains(0))
        let delete = KittyCommand.parse(KittyRenderer.delete(imageID: 9, placementID: b))
        #expect(delete.map(\.keys) == [["a": "d", "d": "i", "i": "9", "p": String(b), "q": "2"]])
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
