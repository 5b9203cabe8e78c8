import ImageCodecs
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery

/// kitty through the frame writer: one upload per image id, one placement per cell, placements
/// deleted (data kept) when a cell changes, data freed when the painter drops it, all cleared on close.
@Suite struct FrameWriterUploadTests {
    let terminal = CellSize(columns: 40, rows: 12)
    let cellPixels = PixelSize(width: 10, height: 20)
    let painter = RendererPainter(renderer: KittyRenderer())

    func image(seed: UInt8) -> Image {
        let pixels = (0..<(64 * 48)).flatMap { i -> [UInt8] in
            [UInt8(truncatingIfNeeded: i &* Int(seed)), seed, UInt8(truncatingIfNeeded: i >> 3), 255]
        }
        return Image(width: 64, height: 48, pixels: pixels)
    }

    func place(_ image: Image, _ column: Int, _ row: Int) throws -> BitmapPlacement {
        let painted = try #require(painter.paint(image, cells: CellSize(columns: 8, rows: 3), cellPixels: cellPixels))
        return BitmapPlacement(column: column, row: row, image: painted)
    }

    func frame(_ writer: inout FrameWriter, _ placements: [BitmapPlacement], released: [UInt32] = []) -> [UInt8] {
        let freed = writer.release(released)
        let plan = writer.plan(placements, terminal: terminal, repaintAll: false, changedRows: [])
        return freed + FrameWriter.clearing(plan.cleared, erasing: plan.erased) + writer.bytes(for: plan)
    }

    func commands(_ bytes: [UInt8], action: String) -> [KittyCommand] {
        KittyCommand.parse(bytes).filter { $0.keys["a"] == action }
    }

    @Test func oneImageInTwoCellsIsUploadedOnceAndPlacedTwice() throws {
        var writer = FrameWriter()
        let photo = image(seed: 3)
        let out = frame(&writer, [try place(photo, 0, 0), try place(photo, 10, 0)])
        let uploads = KittyCommand.transmitted(KittyCommand.parse(out))
        #expect(uploads.count == 1)
        let (id, upload) = try #require(uploads.first)
        #expect(upload.keys["o"] == "z" && upload.data.count == 80 * 60 * 3)
        let places = commands(out, action: "p")
        #expect(places.count == 2)
        #expect(places.allSatisfy { $0.keys["i"] == String(id) && $0.keys["C"] == "1" })
        #expect(Set(places.compactMap { $0.keys["p"] }).count == 2)
        #expect(KittyCommand.parse(out).allSatisfy { $0.payload.count <= 4096 })
        // Uploads are silent; placements ask for error replies (the gallery counts them).
        #expect(commands(out, action: "t").allSatisfy { $0.keys["q"] == "2" } && places.allSatisfy { $0.keys["q"] == "1" })
    }

    @Test func scrollingAwayAndBackReplacesWithoutResending() throws {
        var writer = FrameWriter()
        let x = image(seed: 5), y = image(seed: 7)
        let first = frame(&writer, [try place(x, 0, 0), try place(y, 10, 0)])
        let xID = try #require(try place(x, 0, 0).image.upload?.id)
        // x leaves, y moves into its cell: both old placements are deleted by id and placement id,
        // lowercase (data kept); y is placed again but not re-sent.
        let away = frame(&writer, [try place(y, 0, 0)])
        let deletes = commands(away, action: "d")
        #expect(deletes.count == 2 && deletes.allSatisfy { $0.keys["d"] == "i" && $0.keys["p"] != nil })
        #expect(deletes.contains { $0.keys["i"] == String(xID) && $0.keys["p"] == String(KittyRenderer.placementID(column: 0, row: 0)) })
        #expect(commands(away, action: "t").isEmpty && commands(away, action: "p").count == 1)
        // Back: placements only, a small fraction of the first frame's bytes.
        let back = frame(&writer, [try place(x, 0, 0), try place(y, 10, 0)])
        #expect(commands(back, action: "t").isEmpty)
        #expect(commands(back, action: "p").count == 2)
        #expect(back.count * 20 < first.count)
    }

    @Test func releasedDataIsFreedAndUploadedAgainWhenNeeded() throws {
        var writer = FrameWriter()
        let x = image(seed: 9)
        let cell = try place(x, 0, 0)
        let id = try #require(cell.image.upload?.id)
        _ = frame(&writer, [cell])
        let freed = frame(&writer, [cell], released: [id, 12345])
        #expect(commands(freed, action: "d").map(\.keys) == [["a": "d", "d": "I", "i": String(id), "q": "2"]])
        // d=I removed the placement too: it is placed and uploaded again in the same frame.
        #expect(KittyCommand.transmitted(KittyCommand.parse(freed)).keys.sorted() == [id])
        #expect(commands(freed, action: "p").count == 1)
        #expect(frame(&writer, [cell]).isEmpty)
    }

    /// kitty 0.26 frees, with any `d=I`, every image that has no placement at that moment: an image
    /// scrolled away (placement deleted, data kept) and placed again after another image's `d=I` must
    /// be uploaded again, or kitty answers ENOENT and the cell stays blank.
    @Test func anImageWithoutPlacementIsUploadedAgainAfterAnotherImagesFree() throws {
        var writer = FrameWriter()
        let a = try place(image(seed: 21), 0, 0), b = try place(image(seed: 23), 10, 0)
        let aID = try #require(a.image.upload?.id), bID = try #require(b.image.upload?.id)
        _ = frame(&writer, [a, b])
        _ = frame(&writer, [b])                      // a scrolls away: its placement goes, data kept
        _ = frame(&writer, [], released: [bID])      // b dropped by the painter: `d=I` (kitty frees a too)
        let back = frame(&writer, [a])
        #expect(KittyCommand.transmitted(KittyCommand.parse(back)).keys.sorted() == [aID])
        #expect(commands(back, action: "p").count == 1)
    }

    /// An image still placed when another is freed keeps its data: it is not sent again.
    @Test func anImageStillPlacedKeepsItsDataWhenAnotherIsFreed() throws {
        var writer = FrameWriter()
        let a = try place(image(seed: 25), 0, 0), b = try place(image(seed: 27), 10, 0)
        _ = frame(&writer, [a, b])
        let out = frame(&writer, [a], released: [try #require(b.image.upload?.id)])
        #expect(KittyCommand.transmitted(KittyCommand.parse(out)).isEmpty)
    }

    @Test func painterReportsWhatItsCacheDroppedAndScreenFreesIt() throws {
        let x = image(seed: 11), y = image(seed: 13)
        let probe = try KittyRenderer().render(x, cells: CellSize(columns: 8, rows: 3), cellPixelSize: PixelSize(width: 10, height: 20))
        let small = RendererPainter(renderer: KittyRenderer(), cache: EncodedOutputCache(costLimit: probe.cost * 3 / 2))
        let screen = InMemoryScreen(size: terminal, cellPixels: cellPixels)
        let px = try #require(small.paint(x, cells: CellSize(columns: 8, rows: 3), cellPixels: cellPixels))
        screen.present(Frame(grid: CellGrid(size: terminal), placements: [BitmapPlacement(column: 0, row: 0, image: px)]), repaintAll: false)
        let py = try #require(small.paint(y, cells: CellSize(columns: 8, rows: 3), cellPixels: cellPixels))
        let released = small.takeReleasedUploads()
        #expect(released == [try #require(px.upload?.id)])
        screen.present(Frame(grid: CellGrid(size: terminal), placements: [BitmapPlacement(column: 0, row: 0, image: py)], released: released), repaintAll: false)
        let last = try #require(screen.written.last)
        #expect(commands(last, action: "d").contains { $0.keys["d"] == "I" && $0.keys["i"] == String(released[0]) })
        screen.close()
        // Quit: the shown placement and the image by id, then everything.
        let placement = String(KittyRenderer.placementID(column: 0, row: 0)), shown = String(try #require(py.upload?.id))
        #expect(commands(screen.closingBytes, action: "d").map(\.keys) == [
            ["a": "d", "d": "i", "i": shown, "p": placement, "q": "2"], ["a": "d", "d": "I", "i": shown, "q": "2"],
            ["a": "d", "d": "A", "q": "2"]])
    }

    @Test func textOnlyScreensWriteNothingOnClose() {
        let screen = InMemoryScreen(size: terminal)
        screen.present(Frame(grid: CellGrid(size: terminal)), repaintAll: false)
        screen.close()
        #expect(screen.closingBytes.isEmpty)
    }
}
