import ImageCodecs
import Testing
@testable import Gallery
import TerminalGraphics

/// Text renderers show a few pixels per cell: the gallery asks decodes for those, not for the
/// terminal's cell pixels (so a camera's EXIF thumbnail or a JPEG's 1/8 scale is enough).
@Suite struct DecodePixelsTests {
    @Test func aTextCellNeedsItsSamplesAtTheCellsAspect() {
        let cell = PixelSize(width: 10, height: 20)
        #expect(DecodePixels.perCell(cellPixels: cell, samples: nil) == cell)
        #expect(DecodePixels.perCell(cellPixels: cell, samples: PixelSize(width: 1, height: 2)) == PixelSize(width: 1, height: 2))
        #expect(DecodePixels.perCell(cellPixels: cell, samples: PixelSize(width: 2, height: 2)) == PixelSize(width: 2, height: 4))
        #expect(DecodePixels.perCell(cellPixels: cell, samples: PixelSize(width: 2, height: 3)) == PixelSize(width: 2, height: 4))
        #expect(DecodePixels.perCell(cellPixels: PixelSize(width: 9, height: 18), samples: PixelSize(width: 2, height: 3)) == PixelSize(width: 2, height: 4))
        // Cells smaller than their samples: the cell's pixels.
        #expect(DecodePixels.perCell(cellPixels: PixelSize(width: 1, height: 2), samples: PixelSize(width: 2, height: 3)) == PixelSize(width: 1, height: 2))
    }

    @Test func halfBlockCellsBindAtTheirSamplesNotTheTerminalsPixels() {
        var model = makeModel(count: 30)  // 8×16 cells: 25×9-cell thumbnails, 200×144 px
        #expect(model.reconcile().binds.first?.target == PixelSize(width: 200, height: 144))
        var blocks = makeModel(count: 30)
        blocks.samplesPerCell = RendererPainter(renderer: HalfBlockRenderer(colorDepth: .truecolor)).samplesPerCell
        // Half blocks: 1×2 per cell. A camera's 160×120 EXIF thumbnail now covers the cell.
        #expect(blocks.reconcile().binds.first?.target == PixelSize(width: 25, height: 18))
        #expect(RendererPainter(renderer: SixelRenderer()).samplesPerCell == nil)
    }
}
