import Foundation
import ImageCodecs
import Testing
import TerminalGraphics
import TestSupport
@testable import Gallery

/// A sheet for tmux drawing sixel itself (`ContactSheet.rowImageWidth`): each grid row's images go
/// as one bitmap, each image where it would go alone, so a screenful of rows stays within the few
/// images tmux keeps.
@Suite struct ContactSheetRowImageTests {
    static func solid(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8)) -> Image {
        Image(width: width, height: height, pixels: [UInt8]((0..<width * height).flatMap { _ in [rgb.0, rgb.1, rgb.2, 255] }))
    }

    @Test func eachImageGoesWhereItWouldGoAloneAndTheGapsAreTransparent() {
        let cell = PixelSize(width: 10, height: 20)
        let images = [
            ContactSheet.RowImage(offset: 0, image: Self.solid(96, 64, (200, 30, 90)), rect: CellRect(column: 1, row: 0, columns: 12, rows: 4)),
            ContactSheet.RowImage(offset: 1, image: Self.solid(64, 96, (30, 200, 90)), rect: CellRect(column: 14, row: 0, columns: 12, rows: 4)),
        ]
        let bitmaps = ContactSheet.composed(images, imageRows: 4, cellPixels: cell, maxWidth: 1000)
        #expect(bitmaps.count == 1)
        guard let row = bitmaps.first else { return }
        #expect(row.rect == CellRect(column: 1, row: 0, columns: 25, rows: 4))
        #expect(row.offsets == [0, 1])
        // 4 rows of 20 px in whole sixel bands: 78 px tall, 25 cells of 10 px wide.
        #expect(row.image.size == PixelSize(width: 250, height: 78))
        // The red 3:2 image: 96×64 into 120×78 is 117×78, all 12 cells, from the rectangle's left.
        #expect(row.image.pixel(x: 5, y: 40) == (200, 30, 90, 255))
        #expect(row.image.pixel(x: 115, y: 5) == (200, 30, 90, 255))
        // The green 2:3 image: 52×78, 6 cells wide, centred by cells in its 12: from cell 13 + 3.
        let greenLeft = (13 + 3) * 10
        #expect(row.image.pixel(x: greenLeft + 1, y: 40) == (30, 200, 90, 255))
        #expect(row.image.pixel(x: greenLeft + 50, y: 70) == (30, 200, 90, 255))
        // Between and beside them: nothing drawn.
        #expect(row.image.pixel(x: 125, y: 40).a == 0, "the gap between the rectangles")
        #expect(row.image.pixel(x: greenLeft - 5, y: 40).a == 0, "left of the centred image")
        #expect(row.image.pixel(x: greenLeft + 60, y: 40).a == 0, "right of the centred image")
    }

    @Test func aRowWiderThanTheLimitGoesInPieces() {
        let cell = PixelSize(width: 10, height: 20)
        let images = (0..<5).map {
            ContactSheet.RowImage(offset: $0, image: Self.solid(40, 40, (200, 30, 90)), rect: CellRect(column: $0 * 30, row: 0, columns: 29, rows: 3))
        }
        let bitmaps = ContactSheet.composed(images, imageRows: 3, cellPixels: cell, maxWidth: 600)
        // 290 px per image, 300 px apart: two fit in 600 px, the fifth goes alone.
        #expect(bitmaps.map(\.offsets) == [[0, 1], [2, 3], [4]])
        #expect(bitmaps.allSatisfy { $0.image.width <= 600 })
        #expect(bitmaps.map(\.rect.column) == [0, 60, 120])
    }

    /// What `--print` in tmux warns by: a screen of this sheet shows 2 rows of 2 pieces (6 images
    /// of 24 cells of 9 px to a row: 1,296 px in pieces of at most 1,000), where one bitmap per entry
    /// put 12 on it, over tmux's 9.
    @Test func bitmapsOnAScreenCountRowsAndTheirPieces() {
        var sheet = ContactSheet(width: 150, columns: 6, cellPixels: PixelSize(width: 9, height: 18), depth: .truecolor)
        #expect(sheet.bitmapsPerScreen(screenRows: 44, entries: 12) == 12)
        #expect(sheet.bitmapsPerScreen(screenRows: 44, entries: 5) == 5)
        sheet.rowImageWidth = 1000
        #expect(sheet.bitmapsPerScreen(screenRows: 44, entries: 12) == 4)
        #expect(sheet.bitmapsPerScreen(screenRows: 44, entries: 3) == 2)
        sheet.rowImageWidth = 2000
        #expect(sheet.bitmapsPerScreen(screenRows: 44, entries: 12) == 2)
    }

    /// Through the sheet with libsixel: one sixel per grid row, where one per entry was written before.
    @Test func aSheetWritesOneSixelPerRow() async throws {
        let entries = (0..<7).map { URLListEntry(line: $0 + 1, location: .remote(URL(string: "https://e.example/\($0).png")!), title: "T\($0)") }
        let colours: [(UInt8, UInt8, UInt8)] = [(200, 30, 90), (30, 200, 90), (30, 90, 200)]
        let load: @Sendable (URLListEntry, PixelSize?) -> Result<(Image, ImageDetails), LoadFailure> = { entry, _ in
            let image = Self.solid(48, 32, colours[entry.line % 3])
            return .success((image, ImageDetails(pixelSize: image.size, byteCount: 100)))
        }
        func sixels(rowImageWidth: Int?) async throws -> Int {
            var sheet = ContactSheet(width: 120, columns: 3, cellPixels: PixelSize(width: 10, height: 20), depth: .truecolor)
            sheet.painter = RendererPainter(renderer: SixelRenderer())
            sheet.rowImageWidth = rowImageWidth
            let configured = sheet
            let output = try await Blocking.run { () -> String in
                var out = ""
                _ = configured.render(entries, load: load) { out += $0 }
                return out
            }
            return output.components(separatedBy: "\u{1B}P0;1q").count - 1
        }
        #expect(try await sixels(rowImageWidth: nil) == 7)
        #expect(try await sixels(rowImageWidth: 2000) == 3)
    }
}
