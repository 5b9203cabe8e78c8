import ImageCodecs
import Testing
@testable import TerminalGraphics

@Suite struct SixelRendererTests {
    let cell = PixelSize(width: 10, height: 20)

    /// Mean absolute difference per channel between two RGB buffers of the same size.
    func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var total = 0
        for i in 0..<min(a.count, b.count) { total += abs(Int(a[i]) - Int(b[i])) }
        return Double(total) / Double(max(1, min(a.count, b.count)))
    }

    @Test func photoRoundTripsThroughLibsixelDecoder() throws {
        let image = TestImages.photo(width: 320, height: 192)
        let cells = CellSize(columns: 16, rows: 5)  // 160×100 px → box 160×96
        let out = try SixelRenderer().render(image, cells: cells, cellPixelSize: cell)
        #expect(out.bytes.starts(with: [0x1B, UInt8(ascii: "P")]))
        #expect(out.bytes.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        #expect(out.pixelSize == PixelSize(width: 160, height: 96))
        #expect(out.cells == CellSize(columns: 16, rows: 5))

        let decoded = try SixelRenderer.decode(out.bytes)
        #expect(decoded.width == 160 && decoded.height == 96)
        let source = Compositing.rgb(image, size: PixelSize(width: 160, height: 96), background: .black)
        let mad = meanAbsoluteDifference(decoded.rgb, source)
        // Bound: 256-colour palette + Atkinson diffusion on a noisy gradient stays under 6/255 per channel.
        #expect(mad < 6, "mean absolute difference \(mad)")
    }

    @Test func solidColourIsExactWithinPalettePrecision() throws {
        let image = TestImages.solid(width: 40, height: 30, r: 200, g: 40, b: 60)
        let out = try SixelRenderer().render(image, cells: CellSize(columns: 4, rows: 2), cellPixelSize: cell)
        // Box 40×36 (40 rounded down to a multiple of 6); 40×30 fits; padded to 30 rows (already ×6).
        #expect(out.pixelSize == PixelSize(width: 40, height: 30))
        let decoded = try SixelRenderer.decode(out.bytes)
        let first = Array(decoded.rgb[0..<3])
        // Sixel palettes are in percent: at most ±3 per channel after the round trip.
        #expect(abs(Int(first[0]) - 200) <= 3 && abs(Int(first[1]) - 40) <= 3 && abs(Int(first[2]) - 60) <= 3, "decoded \(first)")
        #expect(decoded.rgb == first.repeated(decoded.width * decoded.height), "not solid")
    }

    @Test func heightIsNotPaddedAndUndrawnPixelsStayTransparent() throws {
        // The old renderer padded the height to a multiple of 6 with the background (black when the
        // terminal did not answer OSC 11) and sent P2=0: a black line under most images.
        let odd = try SixelRenderer(background: RGBColor(r: 0, g: 0, b: 255)).render(
            TestImages.solid(width: 100, height: 41, r: 255, g: 255, b: 255), cells: CellSize(columns: 10, rows: 3),
            cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(odd.pixelSize == PixelSize(width: 100, height: 41))
        #expect(odd.bytes.starts(with: bytes("\u{1B}P0;1q")))
        let decoded = try SixelRenderer.decode(odd.bytes)
        #expect(decoded.height == 41)
        #expect(!decoded.rgb.contains(where: { $0 < 250 }), "only white is drawn")
    }

    /// tmux draws the sixel (`wholeBands`): it stretches an image over the cells it covers, rounded
    /// down to whole bands, and leaves the pixels below a shorter image undrawn (foot showed a 6 px
    /// strip of the loading fill there). The image fills its last cell row with the background.
    @Test func forTmuxTheImageFillsItsLastCellRowWithTheBackground() throws {
        var renderer = SixelRenderer(background: RGBColor(r: 0, g: 0, b: 255))
        renderer.wholeBands = true
        let out = try renderer.render(TestImages.solid(width: 400, height: 300, r: 255, g: 0, b: 0),
                                      cells: CellSize(columns: 39, rows: 15), cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(out.pixelSize == PixelSize(width: 390, height: 293))  // 390 / 400 × 300, rounded
        #expect(out.cells == CellSize(columns: 39, rows: 15))
        let decoded = try SixelRenderer.decode(out.bytes)
        #expect(decoded.height == 300, "drawn over \(decoded.height) of its cells' 300 px")
        let last = Array(decoded.rgb[(299 * decoded.width * 3)..<(299 * decoded.width * 3 + 3)])
        #expect(last[2] > 250 && last[0] < 5, "the padding is the background: \(last)")
        var free = SixelRenderer(background: RGBColor(r: 0, g: 0, b: 255))
        free.wholeBands = false
        #expect(try SixelRenderer.decode(free.render(TestImages.solid(width: 400, height: 300, r: 255, g: 0, b: 0),
                                                     cells: CellSize(columns: 39, rows: 15), cellPixelSize: PixelSize(width: 10, height: 20)).bytes).height < 300)
    }

    /// tmux 3.5a drawing the sixel (found in the field: a band one text row high under every
    /// width-limited thumbnail): it counts a 117 px image as 120 (whole bands), 8 rows of 17 px where
    /// the picture meant 7, drops `P2=1`, and the terminal fills the pixels it leaves undrawn with
    /// register 0, the picture's first colour. Heights are whole bands within the picture's own cell
    /// rows, and register 0 is the background, selected by no pixel.
    @Test(arguments: [false, true])
    func forTmuxEveryHeightIsWholeBandsAndRegisterZeroIsTheBackground(backgroundUnknown: Bool) throws {
        var renderer = SixelRenderer(background: RGBColor(r: 255, g: 255, b: 255), keepsTransparency: backgroundUnknown)
        renderer.wholeBands = true
        let cellPixels = PixelSize(width: 8, height: 17)
        for (w, h) in [(624, 234), (640, 480), (300, 301), (1000, 150), (333, 97)] {
            let out = try renderer.render(TestImages.solid(width: w, height: h, r: 200, g: 40, b: 10),
                                          cells: CellSize(columns: 39, rows: 8), cellPixelSize: cellPixels)
            let decoded = try SixelRenderer.decode(out.bytes)
            #expect(decoded.height % 6 == 0, "\(w)×\(h): \(decoded.height) px is not whole bands")
            #expect((decoded.height + 16) / 17 == out.cells.rows, "\(w)×\(h): tmux would count \((decoded.height + 16) / 17) rows, not \(out.cells.rows)")
            #expect(out.pixelSize.height <= decoded.height && decoded.height - out.pixelSize.height < 17)
            if backgroundUnknown {
                // Nothing to pad with: the picture itself fills whole cells (tmux leaves none undrawn).
                #expect(decoded.width % 8 == 0 && decoded.height > out.cells.rows * 17 - 6, "\(w)×\(h): \(decoded.width)×\(decoded.height) is not whole cells")
            }
            let text = String(decoding: out.bytes, as: UTF8.self)
            let zero = backgroundUnknown ? "#0;2;80;17;5" : "#0;2;100;100;100"  // the bottom colour, to 5 bits a channel
            #expect(text.contains(zero), "\(w)×\(h): register 0 is not \(zero)")
            let selected = Set(text.matches(of: /#(\d+)(?![\d;])/).map { String($0.output.1) })
            #expect(!selected.contains("0"), "\(w)×\(h): a pixel is drawn with register 0")
        }
        // The first case of the field: 312×117 is 304×114 now, 7 rows of 17 px.
        let field = try renderer.render(TestImages.solid(width: 624, height: 234, r: 200, g: 40, b: 10),
                                        cells: CellSize(columns: 39, rows: 8), cellPixelSize: cellPixels)
        #expect(field.pixelSize == PixelSize(width: 304, height: 114))
        #expect(field.cells.rows == 7)
    }

    @Test func transparentPixelsAreNotDrawnWhenTheBackgroundIsUnknown() throws {
        // Left half opaque red, right half fully transparent.
        let width = 24, height = 12
        var pixels: [(UInt8, UInt8, UInt8, UInt8)] = []
        for _ in 0..<height { for x in 0..<width { pixels.append(x < width / 2 ? (255, 0, 0, 255) : (0, 0, 0, 0)) } }
        let image = TestImages.make(width: width, height: height, pixels)
        let cells = CellSize(columns: 3, rows: 1), cellPixels = PixelSize(width: 8, height: 12)
        let keyed = try SixelRenderer(keepsTransparency: true).render(image, cells: cells, cellPixelSize: cellPixels)
        let blended = try SixelRenderer(background: RGBColor(r: 0, g: 0, b: 255)).render(image, cells: cells, cellPixelSize: cellPixels)
        #expect(keyed.bytes.starts(with: bytes("\u{1B}P0;1q")))
        // The key register is defined but never selected: only the red register draws.
        let keyedText = String(decoding: keyed.bytes, as: UTF8.self)
        let selections = Set(keyedText.matches(of: /#(\d+)(?![\d;])/).map { String($0.output.1) })
        #expect(selections.count == 1, "registers drawn: \(selections)")
        // With a known background the transparent half is blended: blue is drawn too.
        let decoded = try SixelRenderer.decode(blended.bytes)
        let right = (width - 1) * 3
        #expect(Array(decoded.rgb[right..<(right + 3)]) == [0, 0, 255])
        #expect(SixelRenderer(keepsTransparency: true).identity != SixelRenderer().identity)
    }

    @Test func tmuxPassthroughWrapsAndUnwraps() throws {
        let image = TestImages.photo(width: 20, height: 12)
        let cells = CellSize(columns: 2, rows: 1)
        let raw = try SixelRenderer().render(image, cells: cells, cellPixelSize: cell)
        let wrapped = try SixelRenderer(tmuxPassthrough: true).render(image, cells: cells, cellPixelSize: cell)
        #expect(wrapped.bytes.starts(with: bytes("\u{1B}Ptmux;\u{1B}\u{1B}P")))
        #expect(TmuxPassthrough.unwrap(wrapped.bytes) == raw.bytes)
    }

    @Test func garbageDoesNotDecode() {
        #expect(throws: RenderError.self) { try SixelRenderer.decode([]) }
    }
}
