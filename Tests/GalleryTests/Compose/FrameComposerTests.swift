import Foundation
import ImageCodecs
import Testing
@testable import Gallery
import TerminalGraphics

@Suite struct FrameComposerTests {
    let composer = FrameComposer()

    @Test func gridShowsCaptionsPlaceholdersProgressErrorsAndStatus() {
        var model = makeModel(count: 40)
        model.setState(.progress(received: 50, expected: 100), of: 1)
        model.setState(.failure("404 Not Found"), of: 2)
        model.setInfo(of: 3, pixelSize: PixelSize(width: 640, height: 480), byteCount: 2048)
        var status = StatusInfo()
        status.activeDownloads = 2
        status.queuedDownloads = 5
        status.bytesReceived = 3 * 1024 * 1024
        let frame = composer.compose(model, status: status) { _ in nil }
        let screen = InMemoryScreen(size: model.terminal)
        screen.present(frame, repaintAll: true)
        let text = screen.lines.joined(separator: "\n")
        #expect(text.contains("0.jpg"))
        #expect(text.contains("50%"))
        #expect(text.contains("✗ 404 Not Found"))
        #expect(text.contains("640×480 · 2 KB"))
        let status0 = screen.lines.last ?? ""
        #expect(status0.hasPrefix(" 1/40 · grid · ⠋ 2 active, 5 queued · 3 MB"))
        #expect(status0.hasSuffix("? help  q quit "))
        // The selected caption is highlighted.
        let caption = model.layout.placement(of: 0, scrollRow: 0)!.text
        #expect(frame.grid[caption.column, caption.row].style == GalleryTheme.colour.selectedTitle)
        let other = model.layout.placement(of: 1, scrollRow: 0)!.text
        #expect(frame.grid[other.column, other.row].style == GalleryTheme.colour.title)
    }

    /// Issue 29: a filter that matched nothing said "No images in the list." in the grid and "0 of 60
    /// matching" in the status bar; it says it once, in the status bar. An empty list still says so.
    @Test func aFilterMatchingNothingSaysItOnce() {
        var model = makeModel(count: 60)
        model.startFilter()
        model.setFilter("zzz-nothing")
        #expect(model.count == 0)
        let screen = InMemoryScreen(size: model.terminal)
        screen.present(composer.compose(model, status: StatusInfo()) { _ in nil }, repaintAll: true)
        let text = screen.lines.joined(separator: "\n")
        #expect(!text.contains("No images in the list."), "\(text)")
        #expect(screen.lines.last?.contains("0 of 60") == true, "\(screen.lines.last ?? "")")
        let empty = makeModel(count: 0)
        let blank = InMemoryScreen(size: empty.terminal)
        blank.present(composer.compose(empty, status: StatusInfo()) { _ in nil }, repaintAll: true)
        #expect(blank.lines.joined().contains("No images in the list."))
    }

    /// With quiet image rows (sixel), a loading cell's image rows change only when its bar crosses a
    /// quarter: 1% more of a download leaves them as they were (the caption still counts).
    @Test func quietImageRowsChangeOnlyAtQuarters() {
        var quiet = FrameComposer()
        quiet.quietImageRows = true
        var model = makeModel(count: 40)
        let place = model.layout.placement(of: 1, scrollRow: 0)!
        func imageRows(_ received: Int64) -> [ScreenCell] {
            model.setState(.progress(received: received, expected: 100), of: 1)
            let grid = quiet.compose(model, status: StatusInfo()) { _ in nil }.grid
            return (place.image.row..<place.image.maxRow).flatMap { row in (place.image.column..<place.image.maxColumn).map { grid[$0, row] } }
        }
        #expect(imageRows(51) == imageRows(52))
        #expect(imageRows(51) != imageRows(76))
        model.setState(.progress(received: 52, expected: 100), of: 1)
        let screen = InMemoryScreen(size: model.terminal)
        screen.present(quiet.compose(model, status: StatusInfo()) { _ in nil }, repaintAll: true)
        #expect(screen.lines.joined().contains("52%"))
    }

    /// "waiting" placeholders were near-black boxes (palette 235) on a white terminal: a light
    /// background reported by the terminal gets light placeholders.
    @Test func aLightTerminalBackgroundGetsLightPlaceholders() {
        #expect(GalleryTheme.colour(on: RGBColor(r: 255, g: 255, b: 255)).placeholder.background == .palette(254))
        #expect(GalleryTheme.colour(on: RGBColor(r: 0, g: 0, b: 0)).placeholder.background == .palette(235))
        #expect(GalleryTheme.colour(on: nil).placeholder.background == .palette(235))
    }

    @Test func picturesBecomeCentredPlacementsAndTheirCellsStayBlank() {
        var model = makeModel(count: 4)
        model.setState(.final, of: 0)
        let painted = RenderedImage(kind: .ascii, rows: Array(repeating: Array("x".utf8), count: 5), cells: CellSize(columns: 21, rows: 5), identity: 7)
        let frame = composer.compose(model, status: StatusInfo()) { $0 == 0 ? painted : nil }
        #expect(frame.placements.count == 1)
        let image = model.layout.placement(of: 0, scrollRow: 0)!.image  // 25×9
        #expect(frame.placements[0].rect == CellRect(column: image.column + 2, row: image.row + 2, columns: 21, rows: 5))
        #expect(frame.grid.line(image.row + 4).hasPrefix(String(repeating: " ", count: 25)))
    }

    @Test func helpOverlayHidesImagesUnderItAndListsTheKeys() {
        var model = makeModel(count: 40)
        _ = model.perform(.toggleHelp)
        let painted = RenderedImage(kind: .ascii, rows: [[]], cells: CellSize(columns: 25, rows: 9), identity: 1)
        let frame = composer.compose(model, status: StatusInfo()) { _ in painted }
        let text = (0..<frame.grid.size.rows).map { frame.grid.line($0) }.joined(separator: "\n")
        #expect(text.contains("sdgallery — keys"))
        #expect(text.contains("grid / list view"))
        #expect(frame.placements.count < 18)
        #expect(!frame.placements.contains { $0.rect.intersects(CellRect(column: 40, row: 10, columns: 80, rows: 14)) })
    }

    /// The help box in `frame`: its columns as drawn on an empty screen, its top the row above its title.
    private func helpBox(in frame: Frame) -> CellRect? {
        guard let title = (0..<frame.grid.size.rows).first(where: { frame.grid.line($0).contains("sdgallery — keys") }) else { return nil }
        var empty = CellGrid(size: frame.grid.size)
        let centred = composer.drawHelp(grid: &empty)
        return CellRect(column: centred.column, row: title - 1, columns: centred.columns, rows: centred.rows)
    }

    @Test func helpKeepsTheRowsOfTextImagesAboveAndBelowIt() throws {
        var model = makeModel(count: 40)
        _ = model.perform(.toggleHelp)
        // One distinct row per cell row, as half-blocks paint them.
        let rows = (0..<9).map { Array("row\($0)".utf8) }
        let painted = RenderedImage(kind: .halfBlock(.truecolor), rows: rows, cells: CellSize(columns: 25, rows: 9), identity: 7)
        let frame = composer.compose(model, status: StatusInfo()) { _ in painted }
        let box = try #require(helpBox(in: frame))
        #expect(!frame.placements.contains { $0.rect.intersects(box) })
        let images = model.placements.map(\.image)
        let cut = images.filter { $0.intersects(box) }
        #expect(!cut.isEmpty)
        for image in images where !image.intersects(box) {
            #expect(frame.placements.contains { $0.rect == image && $0.image.rows == rows })
        }
        // Every image the box cuts keeps its whole rows above and below the box.
        for image in cut where image.row < box.row {
            let kept = frame.placements.filter { $0.rect.column == image.column && $0.rect.row == image.row }
            #expect(kept.count == 1)
            #expect(kept.first?.rect.maxRow == box.row)
            #expect(kept.first?.image.rows == Array(rows.prefix(box.row - image.row)))
        }
        for image in cut where image.maxRow > box.maxRow {
            let kept = frame.placements.filter { $0.rect.column == image.column && $0.rect.maxRow == image.maxRow }
            #expect(kept.count == 1)
            #expect(kept.first?.rect.row == box.maxRow)
            #expect(kept.first?.image.rows == Array(rows.suffix(image.maxRow - box.maxRow)))
        }
        #expect(cut.contains { $0.row < box.row || $0.maxRow > box.maxRow })
    }

    @Test func helpMovesToCutThroughFewestBitmapsAndKeepsTheRest() throws {
        var fewer = 0
        for height in 30...60 {
            var model = makeModel(count: 40, rows: height)
            _ = model.perform(.toggleHelp)
            let painted = RenderedImage(kind: .sixel, bytes: [0x1B], cells: CellSize(columns: 25, rows: 9), identity: 3)
            let frame = composer.compose(model, status: StatusInfo()) { _ in painted }
            let box = try #require(helpBox(in: frame))
            var empty = CellGrid(size: model.terminal)
            let centred = composer.drawHelp(grid: &empty)
            let images = model.placements.map(\.image)
            // No bitmap is drawn over the box and every other one stays whole.
            #expect(!frame.placements.contains { $0.rect.intersects(box) })
            for image in images where !image.intersects(box) {
                #expect(frame.placements.contains { $0.rect == image })
            }
            #expect(frame.placements.count == images.count - images.count(where: { $0.intersects(box) }))
            // The box never cuts more bitmaps than the centred box would, and often fewer.
            let cut = images.count(where: { $0.intersects(box) }), centredCut = images.count(where: { $0.intersects(centred) })
            #expect(cut <= centredCut)
            if cut < centredCut { fewer += 1 }
            // It stays put while the images arrive.
            let loading = composer.compose(model, status: StatusInfo()) { _ in nil }
            #expect(helpBox(in: loading) == box)
        }
        #expect(fewer > 5)
    }

    @Test func fullViewShowsMetadataAndTinyTerminalsDoNotCrash() {
        var model = makeModel(count: 3)
        model.setInfo(of: 0, pixelSize: PixelSize(width: 10, height: 10), format: "PNG", origin: "disk")
        _ = model.perform(.open)
        let frame = composer.compose(model, status: StatusInfo()) { _ in nil }
        let text = (0..<frame.grid.size.rows).map { frame.grid.line($0) }.joined(separator: "\n")
        #expect(text.contains("https://e.example/0.jpg"))
        #expect(text.contains("PNG · 10×10 · disk · 1/3"))
        for size in [(0, 0), (1, 1), (3, 2), (10, 5), (7, 30)] {
            var tiny = makeModel(count: 5, columns: size.0, rows: size.1, columnsOverride: nil)
            for action in [GalleryAction.toggleHelp] { _ = tiny.perform(action) }
            let f = composer.compose(tiny, status: StatusInfo()) { _ in nil }
            #expect(f.grid.size == CellSize(columns: size.0, rows: size.1))
        }
    }

    @Test func hostileTitlesReachTheGridSanitized() {
        let entry = URLListEntry(line: 1, location: .remote(URL(string: "https://e.example/a.jpg")!), title: "evil\u{1B}]0;x\u{07}title")
        let model = GalleryModel(items: [GalleryItem(entry: entry)], terminal: CellSize(columns: 80, rows: 24), cellPixels: PixelSize(width: 8, height: 16))
        let frame = composer.compose(model, status: StatusInfo()) { _ in nil }
        for cell in frame.grid.cells { #expect(!cell.text.unicodeScalars.contains { TerminalText.isUnsafe($0) }) }
    }
}
