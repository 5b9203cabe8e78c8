import ImageCodecs
import Testing
@testable import TerminalGraphics

@Suite struct HalfBlockRendererTests {
    /// Top row red, blue; bottom row green, white. 2×1 cells of 10×20 px: one sample per pixel.
    let image = TestImages.make(width: 2, height: 2, [
        (255, 0, 0, 255), (0, 0, 255, 255),
        (0, 255, 0, 255), (255, 255, 255, 255),
    ])
    let cell = PixelSize(width: 10, height: 20)
    let cells = CellSize(columns: 2, rows: 1)

    @Test func truecolorExact() throws {
        let out = try HalfBlockRenderer(colorDepth: .truecolor).render(image, cells: cells, cellPixelSize: cell)
        #expect(out.rows == [bytes("\u{1B}[38;2;255;0;0;48;2;0;255;0m▀\u{1B}[38;2;0;0;255;48;2;255;255;255m▀\u{1B}[0m")])
        #expect(out.cells == CellSize(columns: 2, rows: 1))
    }

    @Test func color256Exact() throws {
        let out = try HalfBlockRenderer(colorDepth: .color256).render(image, cells: cells, cellPixelSize: cell)
        #expect(out.rows == [bytes("\u{1B}[38;5;196;48;5;46m▀\u{1B}[38;5;21;48;5;231m▀\u{1B}[0m")])
    }

    @Test func color16Exact() throws {
        let ansi = TestImages.make(width: 2, height: 2, [
            (255, 0, 0, 255), (0, 0, 238, 255),
            (0, 205, 0, 255), (255, 255, 255, 255),
        ])
        let out = try HalfBlockRenderer(colorDepth: .color16).render(ansi, cells: cells, cellPixelSize: cell)
        #expect(out.rows == [bytes("\u{1B}[91;42m▀\u{1B}[34;107m▀\u{1B}[0m")])
    }

    @Test func repeatedColoursEmitSGROnce() throws {
        let flat = TestImages.solid(width: 3, height: 2, r: 1, g: 2, b: 3)
        let out = try HalfBlockRenderer().render(flat, cells: CellSize(columns: 3, rows: 1), cellPixelSize: cell)
        #expect(out.rows == [bytes("\u{1B}[38;2;1;2;3;48;2;1;2;3m▀▀▀\u{1B}[0m")])
        // Only the changed half is re-emitted.
        let split = TestImages.make(width: 2, height: 2, [(9, 9, 9, 255), (9, 9, 9, 255), (1, 1, 1, 255), (2, 2, 2, 255)])
        let out2 = try HalfBlockRenderer().render(split, cells: cells, cellPixelSize: cell)
        #expect(out2.rows == [bytes("\u{1B}[38;2;9;9;9;48;2;1;1;1m▀\u{1B}[48;2;2;2;2m▀\u{1B}[0m")])
    }

    @Test func nearest256UsesGrayRampAndCube() {
        #expect(ColorPalette.nearest256(RGBColor(r: 128, g: 128, b: 128)) == 244)
        #expect(ColorPalette.nearest256(RGBColor(r: 95, g: 135, b: 175)) == 67)
        #expect(ColorPalette.nearest256(RGBColor(r: 0, g: 0, b: 0)) == 16)
        for index in 16..<256 { #expect(ColorPalette.nearest256(ColorPalette.color256(index)) == index) }
    }

    @Test func transparencyBlendsAgainstBackground() throws {
        let clear = TestImages.make(width: 1, height: 2, [(255, 255, 255, 0), (255, 255, 255, 128)])
        let bg = RGBColor(r: 10, g: 20, b: 30)
        let out = try HalfBlockRenderer(background: bg).render(clear, cells: CellSize(columns: 1, rows: 1), cellPixelSize: cell)
        #expect(out.rows == [bytes("\u{1B}[38;2;10;20;30;48;2;133;138;143m▀\u{1B}[0m")])
    }

    @Test func aspectRatioFollowsCellSize() throws {
        let square = TestImages.solid(width: 100, height: 100, r: 50, g: 50, b: 50)
        // 10×20 px cells: a square is twice as many columns as rows.
        let tall = try HalfBlockRenderer().render(square, cells: CellSize(columns: 20, rows: 20), cellPixelSize: cell)
        #expect(tall.cells == CellSize(columns: 20, rows: 10))
        // 10×10 px cells: as many columns as rows.
        let even = try HalfBlockRenderer().render(square, cells: CellSize(columns: 20, rows: 20), cellPixelSize: PixelSize(width: 10, height: 10))
        #expect(even.cells == CellSize(columns: 20, rows: 20))
        #expect(tall.rows.count == 10)
    }

    @Test func positionedUsesAbsoluteCursorPerRow() throws {
        let out = try HalfBlockRenderer().render(TestImages.solid(width: 2, height: 4, r: 0, g: 0, b: 0), cells: CellSize(columns: 2, rows: 2), cellPixelSize: PixelSize(width: 10, height: 10))
        let text = String(decoding: out.positioned(row: 3, column: 5), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[3;5H") && text.contains("\u{1B}[4;5H"))
    }

    @Test func badInputThrows() {
        let broken = Image(width: 4, height: 4, pixels: [1, 2, 3])
        #expect(throws: RenderError.self) { try HalfBlockRenderer().render(broken, cells: cells, cellPixelSize: cell) }
        #expect(throws: RenderError.emptyRectangle(CellSize(columns: 0, rows: 3))) {
            try HalfBlockRenderer().render(image, cells: CellSize(columns: 0, rows: 3), cellPixelSize: cell)
        }
    }
}

@Suite struct AsciiRendererTests {
    @Test func rampFromDarkToLight() throws {
        let img = TestImages.make(width: 3, height: 1, [(0, 0, 0, 255), (128, 128, 128, 255), (255, 255, 255, 255)])
        let out = try AsciiRenderer().render(img, cells: CellSize(columns: 3, rows: 1), cellPixelSize: PixelSize(width: 10, height: 10))
        #expect(out.rows == [bytes(" +@")])
        let light = try AsciiRenderer(background: RGBColor(r: 255, g: 255, b: 255)).render(img, cells: CellSize(columns: 3, rows: 1), cellPixelSize: PixelSize(width: 10, height: 10))
        #expect(light.rows == [bytes("@= ")])
    }
}
