import Testing
@testable import Gallery

@Suite struct FrameWriterTests {
    func placement(_ column: Int, _ row: Int, id: UInt64, columns: Int = 4, rows: Int = 2) -> BitmapPlacement {
        let lines = (0..<rows).map { Array("row\($0)".utf8) }
        return BitmapPlacement(column: column, row: row, image: PaintedImage(rows: lines, cells: TermSize(columns: columns, rows: rows), identity: id))
    }

    @Test func writesOnlyNewOrChangedPlacementsAndInvalidatesRowsImagesLeft() {
        var writer = FrameWriter(synchronizedOutput: true)
        let terminal = TermSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1), b = placement(10, 0, id: 2), c = placement(0, 4, id: 3)
        let first = writer.plan([a, b, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(first.emit == [a, b, c])
        #expect(first.staleRows.isEmpty)
        let same = writer.plan([a, b, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(same.emit.isEmpty)
        // b changes content in the same rectangle (a progressive render): only b is rewritten.
        let b2 = placement(10, 0, id: 22)
        let changed = writer.plan([a, b2, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(changed.emit == [b2])
        #expect(changed.staleRows.isEmpty)
        // b shrinks: its rows are rewritten from text, which erases a too, so a is written again.
        let b3 = placement(10, 0, id: 23, columns: 2, rows: 1)
        let shrunk = writer.plan([a, b3, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(shrunk.staleRows == [0, 1])
        #expect(shrunk.emit == [a, b3])
    }

    @Test func removedPlacementsMakeTheirRowsStaleAndNeighboursAreRewritten() {
        var writer = FrameWriter()
        let terminal = TermSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1), b = placement(10, 0, id: 2)
        _ = writer.plan([a, b], terminal: terminal, repaintAll: false, changedRows: [])
        let plan = writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(plan.staleRows == [0, 1])
        #expect(plan.emit == [a])
    }

    @Test func changedRowsAreFoundByComparingGrids() {
        var a = CellGrid(size: TermSize(columns: 5, rows: 4))
        var b = a
        b.put("x", column: 4, row: 2)
        #expect(FrameWriter.changedRows(from: a, to: b) == [2])
        #expect(FrameWriter.changedRows(from: nil, to: b) == [0, 1, 2, 3])
        a.put("y", column: 0, row: 0)
        #expect(FrameWriter.changedRows(from: a, to: b) == [0, 2])
    }

    @Test func textChangesOnAnImageRowRewriteIt() {
        var writer = FrameWriter()
        let terminal = TermSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1)
        _ = writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [1]).emit == [a])
        #expect(writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [5]).emit.isEmpty)
        #expect(writer.plan([a], terminal: terminal, repaintAll: true, changedRows: []).emit == [a])
    }

    @Test func imagesThatTextCannotEraseAreDeletedWithTheirEraseBytes() {
        var writer = FrameWriter()
        let terminal = TermSize(columns: 40, rows: 10)
        let kitty = BitmapPlacement(column: 0, row: 0, image: PaintedImage(bytes: Array("<img>".utf8), cells: TermSize(columns: 4, rows: 2), identity: 5, erase: Array("<del>".utf8)))
        _ = writer.plan([kitty], terminal: terminal, repaintAll: false, changedRows: [])
        let gone = writer.plan([], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(gone.erased == [kitty])
        #expect(gone.staleRows == [0, 1])
        #expect(String(decoding: FrameWriter.bytes(for: gone.emit, erasing: gone.erased), as: UTF8.self) == "\u{1B}7<del>\u{1B}8")
    }

    @Test func neverWritesOnTheLastRowOrOutside() {
        var writer = FrameWriter()
        let terminal = TermSize(columns: 40, rows: 10)
        let onLastRow = placement(0, 8, id: 1)  // rows 8-9: touches row 9, the last
        let outside = placement(38, 0, id: 2)   // columns 38-41
        let ok = placement(0, 7, id: 3)         // rows 7-8
        #expect(writer.plan([onLastRow, outside, ok], terminal: terminal, repaintAll: false, changedRows: []).emit == [ok])
    }

    @Test func bytesSaveMoveWriteRestoreAndSync() {
        let writer = FrameWriter(synchronizedOutput: true)
        #expect(writer.frameStart == Array("\u{1B}[?2026h".utf8))
        #expect(writer.frameEnd == Array("\u{1B}[?2026l".utf8))
        #expect(FrameWriter(synchronizedOutput: false).frameStart.isEmpty)
        let bytes = FrameWriter.bytes(for: [placement(2, 3, id: 1)])
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}7\u{1B}[4;3Hrow0\u{1B}[5;3Hrow1\u{1B}[0m\u{1B}8")
        let sixel = BitmapPlacement(column: 0, row: 0, image: PaintedImage(bytes: Array("\u{1B}Pq#0~\u{1B}\\".utf8), cells: TermSize(columns: 1, rows: 1), identity: 9))
        #expect(String(decoding: FrameWriter.bytes(for: [sixel]), as: UTF8.self) == "\u{1B}7\u{1B}[1;1H\u{1B}Pq#0~\u{1B}\\\u{1B}[0m\u{1B}8")
        #expect(FrameWriter.bytes(for: []).isEmpty)
    }
}
