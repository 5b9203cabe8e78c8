import ImageCodecs
import Testing
@testable import TerminalGraphics

@Suite struct MosaicRendererTests {
    /// Cells whose sub-pixels are square (5×5 px), so a 2×k-pixel image maps one pixel per sub-pixel.
    let quadrantCell = PixelSize(width: 10, height: 10)
    let sextantCell = PixelSize(width: 10, height: 15)

    @Test func quadrantsDrawTwoColoursPerCellWithTheRightGlyph() throws {
        // Cell 1: left red, right blue (▌). Cell 2: top white, bottom black (▀).
        let image = TestImages.make(width: 4, height: 2, [
            (255, 0, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255), (255, 255, 255, 255),
            (255, 0, 0, 255), (0, 0, 255, 255), (0, 0, 0, 255), (0, 0, 0, 255),
        ])
        let out = try MosaicRenderer(layout: .quadrants).render(image, cells: CellSize(columns: 2, rows: 1), cellPixelSize: quadrantCell)
        #expect(out.rows == [bytes("\u{1B}[38;2;255;0;0;48;2;0;0;255m▌\u{1B}[38;2;255;255;255;48;2;0;0;0m▀\u{1B}[0m")])
        #expect(out.cells == CellSize(columns: 2, rows: 1))
        #expect(out.kind == .quadrant(.truecolor))
    }

    @Test func sextantsResolveThreeRowsPerCell() throws {
        // Only the upper-left sub-pixel is white: BLOCK SEXTANT-1 (U+1FB00).
        var pixels = [(UInt8, UInt8, UInt8, UInt8)](repeating: (0, 0, 0, 255), count: 6)
        pixels[0] = (255, 255, 255, 255)
        let out = try MosaicRenderer(layout: .sextants).render(
            TestImages.make(width: 2, height: 3, pixels), cells: CellSize(columns: 1, rows: 1), cellPixelSize: sextantCell)
        #expect(out.rows == [bytes("\u{1B}[38;2;255;255;255;48;2;0;0;0m\u{1FB00}\u{1B}[0m")])
        // The middle row only (sub-pixels 2 and 3): BLOCK SEXTANT-34.
        var middle = [(UInt8, UInt8, UInt8, UInt8)](repeating: (0, 0, 0, 255), count: 6)
        middle[2] = (255, 255, 255, 255)
        middle[3] = (255, 255, 255, 255)
        let band = try MosaicRenderer(layout: .sextants).render(
            TestImages.make(width: 2, height: 3, middle), cells: CellSize(columns: 1, rows: 1), cellPixelSize: sextantCell)
        #expect(band.rows == [bytes("\u{1B}[38;2;255;255;255;48;2;0;0;0m\u{1FB0B}\u{1B}[0m")])
    }

    @Test func flatCellsAreSpacesWithTheBackgroundOnly() throws {
        let flat = TestImages.solid(width: 6, height: 2, r: 1, g: 2, b: 3)
        let out = try MosaicRenderer(layout: .quadrants).render(flat, cells: CellSize(columns: 3, rows: 1), cellPixelSize: quadrantCell)
        #expect(out.rows == [bytes("\u{1B}[48;2;1;2;3m   \u{1B}[0m")])
        // Two colours the 256 palette cannot tell apart: one colour, a space.
        let close = TestImages.make(width: 2, height: 2, [(200, 0, 0, 255), (201, 0, 0, 255), (200, 0, 0, 255), (201, 0, 0, 255)])
        let quantized = try MosaicRenderer(layout: .quadrants, colorDepth: .color256)
            .render(close, cells: CellSize(columns: 1, rows: 1), cellPixelSize: quadrantCell)
        #expect(quantized.rows.first?.contains(UInt8(ascii: " ")) == true)
        #expect(quantized.rows.first.map { String(decoding: $0, as: UTF8.self).contains("38;5") } == false)
    }

    @Test func everySextantMaskHasItsOwnGlyph() {
        let glyphs = (1..<63).map { MosaicSplit.glyph(mask: $0, layout: .sextants) }
        #expect(Set(glyphs).count == 62)
        let scalars = glyphs.map { String(decoding: $0, as: UTF8.self).unicodeScalars.first!.value }
        #expect(scalars.filter { (0x1FB00...0x1FB3B).contains($0) }.count == 60)
        #expect(scalars[20] == 0x258C && scalars[41] == 0x2590)
        #expect(Set((1..<15).map { MosaicSplit.glyph(mask: $0, layout: .quadrants) }).count == 14)
    }

    @Test func theChosenSplitHasTheLeastSquaredError() {
        var generator = SystemRandomNumberGenerator()
        for count in [4, 6] {
            for _ in 0..<200 {
                let pixels = (0..<(count * 3)).map { _ in Int.random(in: 0...255, using: &generator) }
                let best = MosaicSplit.best(pixels, count: count)
                func error(_ mask: Int) -> Int {
                    let full = (1 << count) - 1
                    let fg = MosaicSplit.mean(pixels, count: count, mask: mask), bg = MosaicSplit.mean(pixels, count: count, mask: full & ~mask)
                    return (0..<count).reduce(0) { sum, i in
                        let c = mask & (1 << i) != 0 ? fg : bg
                        let d = (pixels[i * 3] - Int(c.r), pixels[i * 3 + 1] - Int(c.g), pixels[i * 3 + 2] - Int(c.b))
                        return sum + d.0 * d.0 + d.1 * d.1 + d.2 * d.2
                    }
                }
                let chosen = error(best.mask)
                // Means are rounded to bytes: allow their rounding error.
                #expect((0..<(1 << count)).allSatisfy { chosen <= error($0) + 3 * count })
            }
        }
    }

    @Test func forcedQuadrantsAndSextantsFollowTheColourDepth() {
        let caps = TerminalCapabilities(graphics: .sixel, colorDepth: .color256)
        #expect(RendererSelection.choose(for: caps, option: .quadrants).kind == .quadrant(.color256))
        #expect(RendererSelection.choose(for: caps, option: .sextants).kind == .sextant(.color256))
        let mono = TerminalCapabilities(colorDepth: .mono)
        #expect(RendererSelection.choose(for: mono, option: .sextants).kind == .sextant(.color16))
        #expect(RendererSelection.choose(for: caps, option: .quadrants).makeRenderer().identity.kind == .quadrant(.color256))
        #expect(RendererSelection.choose(for: caps, option: .sextants).scrollsWithText(terminal: "tmux 3.3a"))
    }
}
