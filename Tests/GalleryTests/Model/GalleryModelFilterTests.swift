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

    /// A list longer than `inlineScanLines` is scanned by a `FilterScan` off the UI thread: the
    /// key changes the prompt at once, results join in order, a replaced scan's results are dropped,
    /// and lines that arrived on a pipe meanwhile are scanned after it.
    @Test func aLongListIsScannedInChunksAndStaleResultsAreDropped() {
        let count = max(GalleryModel.inlineScanLines, FilterScan.chunkLines) + 10_000  // two chunks
        let text = (0..<count).map { "https://e.example/\($0 % 1000 == 7 ? "Red" : "blue")/\($0).jpg" }.joined(separator: "\n")
        let index = URLListIndex(bytes: Data(text.utf8), baseDirectory: URL(fileURLWithPath: "/"))
        var model = GalleryModel(items: GalleryItems(index: index), terminal: CellSize(columns: 160, rows: 37),
                                 cellPixels: PixelSize(width: 8, height: 16), columnsOverride: 6)
        _ = model.perform(.startFilter)
        _ = model.perform(.filterType("r"))
        let stale = model.takeFilterScan()!
        _ = model.perform(.filterType("e"))
        #expect(model.count == 0 && model.filterScanned == 0 && model.filter == "re")
        let scan = model.takeFilterScan()!
        #expect(model.pendingFilterScan == nil)  // taken once
        stale.run(isCurrent: { true }) { model.receiveFilterResults($0) }
        #expect(model.count == 0)  // the "r" scan was replaced by "re"
        var chunks = 0
        scan.run(isCurrent: { true }) { results in
            chunks += 1
            model.receiveFilterResults(results)
            if !results.done {
                #expect(model.filterScanned == results.scannedThrough)
                // A pipe's lines arriving meanwhile wait for the scan that follows this one.
                if chunks == 1 { model.appendItems(URLListIndex(bytes: Data("https://e.example/red/x.jpg\n".utf8), baseDirectory: URL(fileURLWithPath: "/"))) }
            }
        }
        #expect(chunks == (count + FilterScan.chunkLines - 1) / FilterScan.chunkLines)
        #expect(model.count == count / 1000 + 1)
        #expect(model.filterScanned == count)
        let rest = model.takeFilterScan()!
        #expect(rest.range == count..<(count + 1))
        rest.run(isCurrent: { true }) { model.receiveFilterResults($0) }
        #expect(model.filterScanned == nil && model.count == count / 1000 + 2)
        #expect(model.items[model.count - 1].entry.location.url.lastPathComponent == "x.jpg")
        #expect(model.items[0].entry.location.url.lastPathComponent == "7.jpg")
        var stopped = 0
        scan.run(isCurrent: { stopped += 1; return stopped < 2 }) { _ in }
        #expect(stopped == 2)  // a replaced scan stops at its next chunk
    }
}
