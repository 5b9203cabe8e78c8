import Testing
@testable import Gallery
import TerminalGraphics

@Suite struct FrameWriterTests {
    func placement(_ column: Int, _ row: Int, id: UInt64, columns: Int = 4, rows: Int = 2) -> BitmapPlacement {
        let lines = (0..<rows).map { Array("row\($0)".utf8) }
        return BitmapPlacement(column: column, row: row, image: RenderedImage(kind: .ascii, rows: lines, cells: CellSize(columns: columns, rows: rows), identity: id))
    }

    @Test func writesOnlyNewOrChangedPlacementsAndLeavesNeighboursAlone() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1), b = placement(10, 0, id: 2), c = placement(0, 4, id: 3)
        let first = writer.plan([a, b, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(first.emit == [a, b, c])
        #expect(first.cleared.isEmpty)
        let same = writer.plan([a, b, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(same.emit.isEmpty)
        #expect(same.cleared.isEmpty)
        // b changes content in the same rectangle (a progressive render): b's rectangle is cleared and
        // only b is rewritten; a on the same rows keeps its pixels (the erase stays inside b).
        let b2 = placement(10, 0, id: 22)
        let changed = writer.plan([a, b2, c], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(changed.emit == [b2])
        #expect(changed.cleared == [b.rect])
    }

    /// tmux draws the images (`TmuxImages`): a sixel written over another does not free the one
    /// below, and the ninth newest frees the oldest; so every placement written is covered with
    /// spaces first (freeing exactly what is under it), and nothing is erased with `ECH`, which frees
    /// every image on its row (the left twin of a re-sent image vanished at tmux's next redraw).
    @Test func coveringFirstClearsEveryPlacementWrittenWithSpaces() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1), b = placement(10, 0, id: 2)
        let first = writer.plan([a, b], terminal: terminal, repaintAll: false, changedRows: [], coverFirst: true)
        #expect(first.emit == [a, b])
        #expect(first.cleared == [a.rect, b.rect])
        let b2 = placement(10, 0, id: 22)
        let next = writer.plan([a, b2], terminal: terminal, repaintAll: false, changedRows: [], coverFirst: true)
        #expect(next.emit == [b2])
        #expect(next.cleared == [b.rect])  // once, not twice
        var tmux = TerminalStrategy()
        tmux.tmuxImages = TmuxImages(limit: 9)
        let bytes = FrameWriter.clearing(next.cleared, strategy: tmux)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("X"))
        #expect(bytes.filter { $0 == 0x20 }.count == b.rect.columns * b.rect.rows)
        #expect(String(decoding: FrameWriter.clearing(next.cleared), as: UTF8.self).contains("\u{1B}[4X"))
        // Konsole: the placement over the rectangle's first cell is deleted too (kitty's `d=p`, 1-based).
        var konsoleStrategy = TerminalStrategy()
        konsoleStrategy.deletesBitmapsByCell = true
        let konsole = String(decoding: FrameWriter.clearing(next.cleared, strategy: konsoleStrategy), as: UTF8.self)
        #expect(konsole.contains("\u{1B}_Ga=d,d=p,x=11,y=1,q=2\u{1B}\\"))
        #expect(!String(decoding: FrameWriter.clearing(next.cleared), as: UTF8.self).contains("\u{1B}_G"))
    }

    /// A neighbour's progress bar changes text on the rows of an image: the image is not sent again
    /// (41% of sixel bytes were identical re-sends); text written over its cells re-sends it.
    @Test func onlyImagesUnderChangedTextAreSentAgain() throws {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 80, rows: 10)
        let left = placement(0, 0, id: 1, columns: 10, rows: 4), right = placement(60, 0, id: 2, columns: 10, rows: 4)
        var old = CellGrid(size: terminal)
        _ = old.put("10%", column: 30, row: 2)
        var new = old
        _ = new.put("55%", column: 30, row: 2)
        _ = writer.plan([left, right], terminal: terminal, repaintAll: false, changedRows: [])
        let spans = try #require(FrameWriter.changedSpans(from: old, to: new))
        #expect(spans == [CellRect(column: 30, row: 2, columns: 2, rows: 1)])
        let progress = writer.plan([left, right], terminal: terminal, repaintAll: false,
                                   changedRows: FrameWriter.changedRows(from: old, to: new), changedSpans: spans)
        #expect(progress.emit.isEmpty)
        // Text over the right image's cells (and changes within 16 cells of each other: one span).
        var over = new
        _ = over.put("x", column: 45, row: 3)
        _ = over.put("y", column: 61, row: 3)
        let overSpans = try #require(FrameWriter.changedSpans(from: new, to: over))
        #expect(overSpans == [CellRect(column: 45, row: 3, columns: 17, rows: 1)])
        let overwritten = writer.plan([left, right], terminal: terminal, repaintAll: false, changedRows: [3], changedSpans: overSpans)
        #expect(overwritten.emit == [right])
        #expect(FrameWriter.changedSpans(from: nil, to: new) == nil)
    }

    @Test func anImageReplacedByASmallerOneInTheSameRectangleIsErased() {
        // The old code skipped the erase when the new placement lay inside the old one's rows
        // (`CellRect.covers`): the strip of the old image right of and below the new one stayed.
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let big = placement(10, 2, id: 1, columns: 6, rows: 3)
        let small = placement(10, 2, id: 2, columns: 4, rows: 2)
        _ = writer.plan([big], terminal: terminal, repaintAll: false, changedRows: [])
        let plan = writer.plan([small], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(plan.cleared == [big.rect])
        #expect(plan.emit == [small])
        let bytes = String(decoding: FrameWriter.clearing(plan.cleared) + FrameWriter.bytes(for: plan.emit), as: UTF8.self)
        #expect(bytes == "\u{1B}7\u{1B}[0m\u{1B}[3;11H\u{1B}[6X\u{1B}[4;11H\u{1B}[6X\u{1B}[5;11H\u{1B}[6X\u{1B}8"
            + "\u{1B}7\u{1B}[3;11Hrow0\u{1B}[4;11Hrow1\u{1B}[0m\u{1B}8")
    }

    @Test func aCellTurnedFromImageToErrorTextIsErased() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let image = BitmapPlacement(column: 0, row: 0, image: RenderedImage(kind: .sixel, bytes: Array("\u{1B}Pq#0~\u{1B}\\".utf8), cells: CellSize(columns: 5, rows: 2), identity: 7))
        _ = writer.plan([image], terminal: terminal, repaintAll: false, changedRows: [])
        // The error text lands in row 0 only: the sixel's pixels on row 1 are text-free and would stay.
        let plan = writer.plan([], terminal: terminal, repaintAll: false, changedRows: [0])
        #expect(plan.cleared == [image.rect])
        #expect(String(decoding: FrameWriter.clearing(plan.cleared), as: UTF8.self)
            == "\u{1B}7\u{1B}[0m\u{1B}[1;1H\u{1B}[5X\u{1B}[2;1H\u{1B}[5X\u{1B}8")
    }

    @Test func removedPlacementsAreClearedAndNeighboursKeepTheirPixels() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1), b = placement(10, 0, id: 2)
        _ = writer.plan([a, b], terminal: terminal, repaintAll: false, changedRows: [])
        let plan = writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(plan.cleared == [b.rect])
        #expect(plan.emit.isEmpty)
    }

    @Test func aPlacementOverlappingAClearedRectangleIsWrittenAgain() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1, columns: 8, rows: 2), b = placement(6, 0, id: 2)
        _ = writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [])
        _ = writer.plan([a, b], terminal: terminal, repaintAll: false, changedRows: [])
        let a2 = placement(0, 0, id: 3, columns: 8, rows: 2)
        #expect(writer.plan([a2, b], terminal: terminal, repaintAll: false, changedRows: []).emit == [a2, b])
    }

    @Test func changedRowsAreFoundByComparingGrids() {
        var a = CellGrid(size: CellSize(columns: 5, rows: 4))
        var b = a
        b.put("x", column: 4, row: 2)
        #expect(FrameWriter.changedRows(from: a, to: b) == [2])
        #expect(FrameWriter.changedRows(from: nil, to: b) == [0, 1, 2, 3])
        a.put("y", column: 0, row: 0)
        #expect(FrameWriter.changedRows(from: a, to: b) == [0, 2])
    }

    @Test func rowsThatMovedAreSeenAndBlankRunsSkipPlacements() {
        var old = CellGrid(size: CellSize(columns: 6, rows: 5))
        old.put("ab", column: 0, row: 1)
        var scrolled = CellGrid(size: old.size)
        scrolled.put("ab", column: 0, row: 3)
        #expect(FrameWriter.rowsMoved(from: old, to: scrolled))
        var edited = old
        edited.put("cd", column: 0, row: 1)
        #expect(!FrameWriter.rowsMoved(from: old, to: edited))
        let image = placement(2, 0, id: 1, columns: 2, rows: 2)
        // Row 1 "ab" then blanks: the run after the text, minus the image's columns 2-3; the last row never.
        #expect(FrameWriter.blankRuns(of: old, outside: [image]) == [
            CellRect(column: 0, row: 0, columns: 2, rows: 1), CellRect(column: 4, row: 0, columns: 2, rows: 1),
            CellRect(column: 4, row: 1, columns: 2, rows: 1),
            CellRect(column: 0, row: 2, columns: 6, rows: 1), CellRect(column: 0, row: 3, columns: 6, rows: 1),
        ])
    }

    @Test func textChangesOnAnImageRowRewriteIt() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let a = placement(0, 0, id: 1)
        _ = writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [1]).emit == [a])
        #expect(writer.plan([a], terminal: terminal, repaintAll: false, changedRows: [5]).emit.isEmpty)
        #expect(writer.plan([a], terminal: terminal, repaintAll: true, changedRows: []).emit == [a])
    }

    @Test func imagesThatTextCannotEraseAreDeletedWithTheirEraseBytes() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let kitty = BitmapPlacement(column: 0, row: 0, image: RenderedImage(kind: .kitty, bytes: Array("<img>".utf8), cells: CellSize(columns: 4, rows: 2), identity: 5, erase: Array("<del>".utf8)))
        _ = writer.plan([kitty], terminal: terminal, repaintAll: false, changedRows: [])
        let gone = writer.plan([], terminal: terminal, repaintAll: false, changedRows: [])
        #expect(gone.erased == [kitty])
        #expect(gone.cleared == [kitty.rect])
        #expect(String(decoding: FrameWriter.clearing([], erasing: gone.erased), as: UTF8.self) == "\u{1B}7<del>\u{1B}8")
        #expect(String(decoding: FrameWriter.bytes(for: gone.emit, erasing: gone.erased), as: UTF8.self) == "\u{1B}7<del>\u{1B}8")
    }

    @Test func neverWritesOnTheLastRowOrOutside() {
        var writer = FrameWriter()
        let terminal = CellSize(columns: 40, rows: 10)
        let onLastRow = placement(0, 8, id: 1)  // rows 8-9: touches row 9, the last
        let outside = placement(38, 0, id: 2)   // columns 38-41
        let ok = placement(0, 7, id: 3)         // rows 7-8
        #expect(writer.plan([onLastRow, outside, ok], terminal: terminal, repaintAll: false, changedRows: []).emit == [ok])
    }

    @Test func bytesSaveMoveWriteRestoreAndSync() {
        var strategy = TerminalStrategy()
        strategy.synchronizedOutput = true
        #expect(strategy.frameStart == Array("\u{1B}[?2026h".utf8))
        #expect(strategy.frameEnd == Array("\u{1B}[?2026l".utf8))
        #expect(TerminalStrategy().frameStart.isEmpty)
        let bytes = FrameWriter.bytes(for: [placement(2, 3, id: 1)])
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}7\u{1B}[4;3Hrow0\u{1B}[5;3Hrow1\u{1B}[0m\u{1B}8")
        let sixel = BitmapPlacement(column: 0, row: 0, image: RenderedImage(kind: .sixel, bytes: Array("\u{1B}Pq#0~\u{1B}\\".utf8), cells: CellSize(columns: 1, rows: 1), identity: 9))
        #expect(String(decoding: FrameWriter.bytes(for: [sixel]), as: UTF8.self) == "\u{1B}7\u{1B}[1;1H\u{1B}Pq#0~\u{1B}\\\u{1B}[0m\u{1B}8")
        #expect(FrameWriter.bytes(for: []).isEmpty)
    }
}
