import Foundation
import Testing
import TestSupport
@testable import Gallery

/// Scrolling that costs what changed: a `j` that scrolls the grid by one row scrolls the terminal and
/// sends the images of the exposed row only; with a screen that cannot scroll, every image again.
@Suite struct GalleryAppScrollTests {
    /// Bytes written from the `j` that scrolled until the exposed row is drawn, and the bytes the
    /// exposed row's images take on their own.
    func scrollCost(scrolls: Bool) async throws -> (written: Int, exposedRow: Int, scrolledByTerminal: Bool) {
        let layout = makeModel(count: 100).layout  // the harness's model: 6 columns × 3 rows
        let harness = try AppHarness(count: 100, scrolls: scrolls)
        let bands = (0..<layout.visibleRows).map { ($0 * layout.itemHeight)..<(($0 + 1) * layout.itemHeight) }
        func written(after start: Int) -> String {
            harness.screen.written.dropFirst(start).map { String(decoding: $0, as: UTF8.self) }.joined()
        }
        // The first screen is drawn: every cell of every row placed.
        #expect(await harness.wait { _ in
            let text = written(after: 0)
            return bands.allSatisfy { Self.columnsPlaced(in: text, rows: $0) >= layout.columns }
        })
        let before = harness.screen.written.count
        // To the last row (no scroll, no image bytes), then one row further: the grid scrolls by one row.
        harness.type(String(repeating: "j", count: layout.visibleRows))
        // Drawn when every cell of the exposed (bottom) row was placed.
        let bottom = bands.last!.lowerBound
        // Placed (the cursor at each cell) and painted: the captions alone place the cursor at every
        // column too, and a loaded machine paints the row's images after them.
        let drawn = await harness.wait { _ in Self.columnsPlaced(in: written(after: before), rows: bands.last!) >= layout.columns }
        #expect(drawn, "the exposed row was not drawn")
        #expect(await harness.untilUI { h in
            (h.screen.frames.last?.placements.filter { $0.rect.row >= bottom }.count ?? 0) == layout.columns
        }, "the exposed row's images were not painted")
        harness.type("q")
        #expect(await harness.finish())
        let bytes = harness.screen.written.dropFirst(before).reduce(0) { $0 + $1.count }
        let last = try #require(harness.screen.frames.last)
        let exposed = last.placements.filter { $0.rect.row >= bottom }
        #expect(exposed.count == layout.columns)
        return (bytes, FrameWriter.bytes(for: exposed).count, written(after: before).contains("\u{1B}[\(layout.itemHeight)S"))
    }

    /// How many distinct columns the cursor was placed at (`CSI row;col H`) within `rows`.
    static func columnsPlaced(in text: String, rows: Range<Int>) -> Int {
        var columns = Set<Int>()
        for match in text.matches(of: /\x1B\[(\d+);(\d+)H/) {
            if let row = Int(match.1), let column = Int(match.2), rows.contains(row - 1) { columns.insert(column) }
        }
        return columns.count
    }

    @Test func aOneRowScrollSendsOnlyTheExposedRow() async throws {
        let cost = try await scrollCost(scrolls: true)
        #expect(cost.scrolledByTerminal)
        // The goal: at most 1.3 × the bytes of the newly exposed row.
        #expect(Double(cost.written) <= 1.3 * Double(cost.exposedRow), "\(cost.written) B written for a row of \(cost.exposedRow) B")
    }

    /// xterm moves sixel pixels on a scroll down but not its record of them (cells went blank, old
    /// images came back): where the terminal cannot scroll images back, a `k` that scrolls the grid
    /// up is drawn without `CSI n T`, every image written again; a `j` still scrolls.
    @Test func aScrollBackWhereImagesDoNotMoveBackRepaintsEveryImage() async throws {
        let layout = makeModel(count: 100).layout
        let harness = try AppHarness(count: 100, scrolls: true, scrollsBack: false)
        let bands = (0..<layout.visibleRows).map { ($0 * layout.itemHeight)..<(($0 + 1) * layout.itemHeight) }
        func written(after start: Int) -> String {
            harness.screen.written.dropFirst(start).map { String(decoding: $0, as: UTF8.self) }.joined()
        }
        #expect(await harness.wait { _ in bands.allSatisfy { Self.columnsPlaced(in: written(after: 0), rows: $0) >= layout.columns } })
        let down = harness.screen.written.count
        harness.type(String(repeating: "j", count: layout.visibleRows))
        #expect(await harness.wait { _ in Self.columnsPlaced(in: written(after: down), rows: bands.last!) >= layout.columns })
        #expect(written(after: down).contains("\u{1B}[\(layout.itemHeight)S"))
        let up = harness.screen.written.count
        // Back to the top row, then one further: the grid scrolls down by one row.
        harness.type(String(repeating: "k", count: layout.visibleRows))
        let repainted = await harness.wait { _ in bands.allSatisfy { Self.columnsPlaced(in: written(after: up), rows: $0) >= layout.columns } }
        #expect(repainted, "not every image was written again after the scroll back")
        #expect(!written(after: up).contains("\u{1B}[\(layout.itemHeight)T"))
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func aScreenThatCannotScrollRepaintsEveryImage() async throws {
        let cost = try await scrollCost(scrolls: false)
        #expect(!cost.scrolledByTerminal)
        #expect(Double(cost.written) >= 2.5 * Double(cost.exposedRow), "\(cost.written) B written for a row of \(cost.exposedRow) B")
    }
}
