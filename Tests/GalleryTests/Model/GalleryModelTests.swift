import Foundation
import ImageCodecs
import Testing
import WebImage
@testable import Gallery
import TerminalGraphics

/// A model over `count` synthetic items.
/// Defaults give 6 columns × 3 rows (18 per screen), thumbnails of 25×9 cells = 200×144 px.
func makeModel(count: Int, columns: Int = 160, rows: Int = 37, mode: ViewMode = .grid, columnsOverride: Int? = 6) -> GalleryModel {
    let items = (0..<count).map { GalleryItem(entry: URLListEntry(line: $0 + 1, location: .remote(URL(string: "https://e.example/\($0).jpg")!))) }
    return GalleryModel(items: items, terminal: CellSize(columns: columns, rows: rows), cellPixels: PixelSize(width: 8, height: 16), mode: mode, columnsOverride: columnsOverride)
}

@Suite struct GalleryModelTests {
    @Test func arrowsMoveTheSelectionAndScrollKeepsItVisible() {
        var model = makeModel(count: 100)  // 6 columns × 3 rows per screen
        #expect(model.layout.pageCapacity == 18)
        _ = model.perform(.right)
        #expect(model.selection == 1)
        _ = model.perform(.down)
        #expect(model.selection == 7)
        _ = model.perform(.down); _ = model.perform(.down)
        #expect(model.selection == 19)
        #expect(model.scrollRow == 1)
        _ = model.perform(.up); _ = model.perform(.up); _ = model.perform(.up)
        #expect(model.selection == 1)
        #expect(model.scrollRow == 0)
        let outcome = model.perform(.up)
        #expect(model.selection == 1)
        #expect(!outcome.changed)
        _ = model.perform(.left); _ = model.perform(.left)
        #expect(model.selection == 0)
    }

    @Test func downOnThePenultimateRowGoesToTheLastItem() {
        var model = makeModel(count: 20)  // rows: 0-5, 6-11, 12-17, 18-19
        _ = model.perform(.home)
        for _ in 0..<2 { _ = model.perform(.down) }
        _ = model.perform(.right); _ = model.perform(.right); _ = model.perform(.right)
        #expect(model.selection == 15)
        _ = model.perform(.down)
        #expect(model.selection == 19)
        _ = model.perform(.down)
        #expect(model.selection == 19)
    }

    @Test func pagingHomeAndEnd() {
        var model = makeModel(count: 100)  // 17 rows of 6
        _ = model.perform(.pageDown)
        #expect(model.scrollRow == 3)
        #expect(model.selection == 18)
        _ = model.perform(.pageDown)
        #expect(model.scrollRow == 6)
        _ = model.perform(.pageUp)
        #expect(model.scrollRow == 3)
        #expect(model.selection == 18)
        _ = model.perform(.end)
        #expect(model.selection == 99)
        #expect(model.scrollRow == model.maxScrollRow)
        #expect(model.maxScrollRow == 14)
        _ = model.perform(.pageDown)
        #expect(model.selection == 99)
        _ = model.perform(.home)
        #expect(model.selection == 0)
        #expect(model.scrollRow == 0)
        _ = model.perform(.pageUp)
        #expect(model.selection == 0)
    }

    @Test func wheelScrollsTheViewAndDragsTheSelectionOnlyWhenItLeaves() {
        var model = makeModel(count: 100)
        _ = model.perform(.right)
        _ = model.perform(.scroll(1))
        #expect(model.scrollRow == 1)
        #expect(model.selection == 7)  // row 0 left the screen: selection moved to row 1, same column
        _ = model.perform(.scroll(-1))
        #expect(model.scrollRow == 0)
        #expect(model.selection == 7)
        _ = model.perform(.scroll(-5))
        #expect(model.scrollRow == 0)
        _ = model.perform(.scroll(1000))
        #expect(model.scrollRow == model.maxScrollRow)
        #expect(model.visibleIndices.contains(model.selection))
    }

    @Test func clickSelectsAndDoubleClickOpens() {
        var model = makeModel(count: 100)
        let place = model.layout.placement(of: 9, scrollRow: 0)!
        _ = model.perform(.click(column: place.image.column + 1, row: place.image.row + 1))
        #expect(model.selection == 9)
        #expect(model.fullView == nil)
        let other = model.layout.placement(of: 4, scrollRow: 0)!
        _ = model.perform(.doubleClick(column: other.text.column, row: other.text.row))
        #expect(model.selection == 4)
        #expect(model.fullView == 4)
    }

    /// Issue 30: the grid and the list show stills, so their loads decode an animation's first frame
    /// only; the full view (and its prefetch of the next item) plays every frame.
    @Test func gridLoadsAreStillsAndTheFullViewPlays() {
        var model = makeModel(count: 100)
        model.prefetchScreens = 1
        let grid = model.reconcile()
        #expect(!grid.binds.isEmpty && grid.binds.allSatisfy { !$0.animated && $0.request.bindOptions == .firstFrameOnly })
        #expect(!model.prefetchWindow().isEmpty && model.prefetchWindow().allSatisfy { !$0.animated })
        _ = model.perform(.open)
        let full = model.reconcile()
        #expect(full.binds.count == 1 && full.binds[0].animated && full.binds[0].request.bindOptions.isEmpty)
        #expect(model.prefetchWindow().allSatisfy { $0.animated })
    }

    /// Issue 32: with `--animate` the cells play, so their loads and prefetches decode every frame
    /// (one cache entry for both); `a` pauses, in any view, and changes no load.
    @Test func withAnimateCellsAndTheirPrefetchesDecodeEveryFrame() {
        var model = makeModel(count: 100)
        model.animatesCells = true
        let grid = model.reconcile()
        #expect(!grid.binds.isEmpty && grid.binds.allSatisfy { $0.animated && $0.request.bindOptions.isEmpty })
        #expect(!model.prefetchWindow().isEmpty && model.prefetchWindow().allSatisfy { $0.animated })
        #expect(model.perform(.toggleAnimation).changed)
        #expect(model.animationsPaused)
        #expect(model.reconcile().binds.isEmpty)
        _ = model.perform(.open)
        _ = model.perform(.toggleAnimation)
        #expect(!model.animationsPaused && model.fullView == 0)
    }

    @Test func viewToggleHelpAndFullView() {
        var model = makeModel(count: 30)
        _ = model.perform(.toggleView)
        #expect(model.mode == .list)
        #expect(model.layout.columns == 1)
        _ = model.perform(.toggleHelp)
        #expect(model.showingHelp)
        let any = model.perform(.down)  // any key closes help and does nothing else
        #expect(!model.showingHelp)
        #expect(any.changed && !any.quit)
        #expect(model.selection == 0)
        _ = model.perform(.open)
        #expect(model.fullView == 0)
        _ = model.perform(.next); _ = model.perform(.next)
        #expect(model.fullView == 2)
        #expect(model.selection == 2)
        _ = model.perform(.previous)
        #expect(model.fullView == 1)
        #expect(!model.perform(.back).quit)
        #expect(model.fullView == nil)
        #expect(model.perform(.back).quit)
    }

    @Test func resizeReflowsAndKeepsTheSelectionVisible() {
        var model = makeModel(count: 500)
        for _ in 0..<10 { _ = model.perform(.pageDown) }
        let selected = model.selection
        for size in [(10, 5), (40, 12), (300, 100), (1, 2), (160, 48), (0, 0), (80, 24)] {
            model.resize(terminal: CellSize(columns: size.0, rows: size.1))
            #expect(model.selection == selected)
            if model.layout.visibleRows > 0 {
                #expect(model.visibleIndices.contains(selected), "\(size): \(model.visibleIndices)")
            }
        }
    }

    @Test func emptyGalleryIgnoresMovementButQuits() {
        var model = makeModel(count: 0)
        #expect(!model.perform(.down).changed)
        #expect(model.reconcile().isEmpty)
        #expect(model.perform(.back).quit)
    }

    @Test func cellStatesAndCaptions() {
        var model = makeModel(count: 3)
        model.setState(.progress(received: 512, expected: 2048), of: 0)
        #expect(model.items[0].details == "25%")
        model.setInfo(of: 0, pixelSize: PixelSize(width: 640, height: 480), byteCount: 250_000)
        model.setState(.final, of: 0)
        #expect(model.items[0].details == "640×480 · 244 KB")
        model.setState(.failure("404 Not Found\u{1B}[2J"), of: 1)
        #expect(model.items[1].details == "404 Not Found")
        #expect(model.items[2].details == "waiting")
        #expect(SizeText.size(3_500_000) == "3.3 MB")
    }
}

/// The model over a 10⁶-line index holds only what was touched, and the end of the list is as near as the start.
@Suite struct LargeListModelTests {
    @Test func aMillionLineListKeepsOnlyTouchedItems() throws {
        var text = Data(capacity: 45_000_000)
        for number in 0..<1_000_000 { text.append(contentsOf: "https://e.example/p/\(number).jpg Photo \(number)\n".utf8) }
        let index = URLListIndex(bytes: text, baseDirectory: URL(fileURLWithPath: "/"), home: nil)
        var model = GalleryModel(items: GalleryItems(index: index), terminal: CellSize(columns: 160, rows: 37),
                                 cellPixels: PixelSize(width: 8, height: 16), columnsOverride: 6)
        #expect(model.count == 1_000_000)
        let first = model.reconcile()
        for binding in first.binds { model.setState(.final, of: binding.index) }
        _ = model.perform(.end)
        let last = model.reconcile()
        #expect(model.visibleIndices.upperBound == 1_000_000)
        #expect(model.items[999_999].title == "Photo 999999")
        for binding in last.binds { model.setState(.final, of: binding.index) }
        _ = model.perform(.pageUp)
        _ = model.reconcile()
        // Two screens were loaded (18, then the last 16); cancelled loads leave nothing behind.
        #expect(first.binds.count == 18 && last.binds.count == 16)
        #expect(model.items.heldCount == 34)
        #expect(model.items[0].state == .final)
        #expect(model.items[500_000].state == .placeholder)
    }

    @Test func aBadLineIsAFailedCellThatIsNeverLoaded() {
        let index = URLListIndex(bytes: Data("https://e.example/a.jpg\nftp://e.example/b.jpg\n".utf8), baseDirectory: URL(fileURLWithPath: "/"), home: nil)
        let items = GalleryItems(index: index)
        #expect(items[1].problem?.line == 2)
        #expect(items[1].state == .failure("line 2: unsupported scheme 'ftp': ftp://e.example/b.jpg"))
        #expect(items[0].problem == nil)
    }
}
