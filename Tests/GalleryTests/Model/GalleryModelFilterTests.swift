import Foundation
import Testing
import ImageCodecs
import TerminalGraphics
@testable import Gallery

@Suite struct GalleryModelFilterTests {
    func model() -> GalleryModel {
        let text = (0..<60).map { "https://e.example/\($0 % 3 == 0 ? "Red" : "blue")/\($0).jpg Item\($0)" }.joined(separator: "\n")
        let index = URLListIndex(bytes: Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        return GalleryModel(items: GalleryItems(index: index), terminal: CellSize(columns: 160, rows: 37),
                            cellPixels: PixelSize(width: 8, height: 16), columnsOverride: 6)
    }

    @Test func typingNarrowsEnterKeepsEscClears() {
        var model = model()
        _ = model.reconcile()
        _ = model.perform(.pageDown)
        #expect(model.perform(.startFilter).changed && model.editingFilter)
        for character in "red" { _ = model.perform(.filterType(character)) }  // case ignored
        #expect(model.count == 20 && model.items.totalCount == 60)
        #expect(model.selection == 0 && model.scrollRow == 0)
        #expect(model.items[1].entry.location.url.lastPathComponent == "3.jpg")
        // The old screen's bindings are released: the next reconcile cancels them and binds the new one.
        let diff = model.reconcile()
        #expect(diff.cancels.count == 18 && diff.binds.count == 18)
        #expect(diff.binds.allSatisfy { model.items[$0.index].entry.location.url.path.hasPrefix("/Red/") })
        _ = model.perform(.filterType("/"))
        _ = model.perform(.filterType("4"))
        #expect(model.count == 3)  // "red/4": Red/42, Red/45, Red/48
        _ = model.perform(.filterErase)
        _ = model.perform(.filterErase)
        _ = model.perform(.filterAccept)
        #expect(!model.editingFilter && model.filter == "red" && model.count == 20)
        // Keys move again inside the filtered list; q/Esc clear the filter before quitting.
        _ = model.perform(.right)
        #expect(model.selection == 1)
        #expect(!model.perform(.back).quit)
        #expect(model.filter == nil && model.count == 60)
        #expect(model.perform(.back).quit)
    }

    @Test func theScanReadsRawLinesCaseInsensitively() {
        let text = "# comment with red\nhttps://a/X.jpg Big Red dog\nhttps://a/y.jpg\n\nhttps://a/RED.png"
        let index = URLListIndex(bytes: Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        #expect(index.positions(containing: "red") == [0, 2])
        #expect(index.positions(containing: "") == [0, 1, 2])
        #expect(index.positions(containing: "nothing").isEmpty)
    }
}
