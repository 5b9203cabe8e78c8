import ImageCodecs
import Testing
@testable import Gallery

@Suite struct HalfBlockPainterTests {
    /// A w×h image whose top half is `top` and bottom half `bottom`.
    func twoTone(width: Int, height: Int, top: [UInt8], bottom: [UInt8]) -> Image {
        var pixels: [UInt8] = []
        for y in 0..<height { for _ in 0..<width { pixels += y < height / 2 ? top : bottom } }
        return Image(width: width, height: height, pixels: pixels)
    }

    @Test func paintsExactColoursTopInForegroundBottomInBackground() throws {
        let image = twoTone(width: 4, height: 2, top: [255, 0, 0, 255], bottom: [0, 0, 255, 255])
        // 4 columns × 1 row of 8×16 cells = 32×16 px; samples are 8×8: the 4×2 image maps to 4×2 samples.
        let painted = try #require(HalfBlockPainter().paint(image, cells: TermSize(columns: 4, rows: 1), cellPixels: PixelSize(width: 8, height: 16)))
        #expect(painted.cells == TermSize(columns: 4, rows: 1))
        #expect(painted.rows.count == 1)
        let text = String(decoding: painted.rows[0], as: UTF8.self)
        #expect(text == "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀▀▀▀\u{1B}[0m")
    }

    @Test func reducedColourDepthsUseThePaletteAndBasicColours() throws {
        let image = twoTone(width: 2, height: 2, top: [255, 0, 0, 255], bottom: [0, 0, 255, 255])
        let px = PixelSize(width: 8, height: 16)
        let p256 = try #require(HalfBlockPainter(depth: .palette256).paint(image, cells: TermSize(columns: 2, rows: 1), cellPixels: px))
        #expect(String(decoding: p256.rows[0], as: UTF8.self) == "\u{1B}[38;5;196m\u{1B}[48;5;21m▀▀\u{1B}[0m")
        let p16 = try #require(HalfBlockPainter(depth: .basic16).paint(image, cells: TermSize(columns: 2, rows: 1), cellPixels: px))
        #expect(String(decoding: p16.rows[0], as: UTF8.self) == "\u{1B}[91m\u{1B}[44m▀▀\u{1B}[0m")
        #expect(ScreenColor.nearestPaletteIndex(r: 128, g: 128, b: 128) == 244)
        #expect(ScreenColor.nearestPaletteIndex(r: 0, g: 0, b: 0) == 16)
    }

    @Test func keepsAspectRatioWithRealCellShapeAndBlendsAlpha() throws {
        let wide = Image(width: 200, height: 50, pixels: Array(repeating: 0, count: 200 * 50 * 4))  // transparent black
        let painted = try #require(HalfBlockPainter(background: (10, 20, 30)).paint(wide, cells: TermSize(columns: 20, rows: 10), cellPixels: PixelSize(width: 8, height: 16)))
        // 160×160 px box; the 4:1 image becomes 160×40 px = 20 columns × 5 half-rows, trimmed to an even
        // 4 (a last half-filled row would show the terminal background as a stripe) → 2 cell rows.
        #expect(painted.cells == TermSize(columns: 20, rows: 2))
        #expect(String(decoding: painted.rows[0], as: UTF8.self).hasPrefix("\u{1B}[38;2;10;20;30m\u{1B}[48;2;10;20;30m"))
        #expect(!painted.rows.contains { String(decoding: $0, as: UTF8.self).contains("\u{1B}[49m") })
        #expect(HalfBlockPainter().paint(Image(width: 0, height: 0, pixels: []), cells: TermSize(columns: 4, rows: 4), cellPixels: PixelSize(width: 8, height: 16)) == nil)
    }

    @Test func identityChangesWithTheImageAndSize() throws {
        let a = twoTone(width: 8, height: 8, top: [1, 2, 3, 255], bottom: [4, 5, 6, 255])
        let b = twoTone(width: 8, height: 8, top: [1, 2, 3, 255], bottom: [4, 5, 6, 255])
        let painter = HalfBlockPainter()
        let px = PixelSize(width: 8, height: 16)
        let pa = try #require(painter.paint(a, cells: TermSize(columns: 4, rows: 2), cellPixels: px))
        #expect(painter.paint(a, cells: TermSize(columns: 4, rows: 2), cellPixels: px)?.identity == pa.identity)
        #expect(painter.paint(b, cells: TermSize(columns: 4, rows: 2), cellPixels: px)?.identity != pa.identity)
        #expect(painter.paint(a, cells: TermSize(columns: 2, rows: 1), cellPixels: px)?.identity != pa.identity)
    }
}
