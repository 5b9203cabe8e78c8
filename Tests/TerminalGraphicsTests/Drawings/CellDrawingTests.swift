import Testing
@testable import TerminalGraphics

@Suite struct CellDrawingTests {
    let size = CellSize(columns: 16, rows: 5)

    func checkShape(_ d: CellDrawing) {
        #expect(d.lines.count == d.size.rows)
        #expect(d.lines.allSatisfy { $0.count == d.size.columns })
    }

    @Test func placeholderIsAFrame() {
        let d = CellDrawing.placeholder(size: size)
        checkShape(d)
        #expect(d.lines[0] == "┌" + String(repeating: "┄", count: 14) + "┐")
        #expect(d.lines[2].contains("…"))
        checkShape(.placeholder(size: CellSize(columns: 2, rows: 1)))
        checkShape(.placeholder(size: CellSize(columns: 0, rows: 0)))
    }

    @Test func progressShowsBarAndPercent() {
        let d = CellDrawing.progress(0.42, size: size)
        checkShape(d)
        #expect(d.lines[2] == "[████░░░░░░] 42%")  // 10-wide bar, 4 filled
        #expect(CellDrawing.progress(2, size: size).lines[2].hasSuffix("100%"))
        #expect(CellDrawing.progress(.nan, size: CellSize(columns: 4, rows: 1)).lines == [" 0% "])
    }

    @Test func errorIsSanitizedWrappedAndTruncated() {
        let d = CellDrawing.error("HTTP 404 \u{1B}[2J not found on this server at all", size: CellSize(columns: 10, rows: 3))
        checkShape(d)
        #expect(!d.lines.joined().contains("\u{1B}"))
        #expect(d.lines[0].hasPrefix("✗ HTTP 404"))
        #expect(d.lines[2].contains("…"))
        checkShape(.error("x", size: CellSize(columns: 0, rows: 2)))
        checkShape(.error("averyveryverylongwordwithoutspaces", size: CellSize(columns: 5, rows: 2)))
    }
}
