import ImageCodecs
import Testing
@testable import Gallery
import TerminalGraphics

@Suite struct GalleryLayoutTests {
    let px = PixelSize(width: 8, height: 16)

    @Test(arguments: [(10, 5), (1, 1), (0, 0), (2, 2), (20, 3), (80, 24), (120, 40), (160, 48), (300, 100), (1000, 400), (4000, 2000)])
    func layoutFitsInsideTheTerminal(columns: Int, rows: Int) {
        for mode in ViewMode.allCases {
            let layout = GalleryLayout(mode: mode, terminal: CellSize(columns: columns, rows: rows), cellPixels: px)
            #expect(layout.columns >= 1)
            let count = 10_000
            for index in 0..<min(count, layout.pageCapacity) {
                guard let place = layout.placement(of: index, scrollRow: 0) else {
                    Issue.record("item \(index) of the first screen has no placement")
                    continue
                }
                // Nothing on the status bar row, nothing past the right edge.
                #expect(place.cell.maxRow <= max(0, rows - 1), "\(mode) \(columns)x\(rows): \(place.cell)")
                #expect(place.cell.maxColumn <= columns)
                #expect(place.image.maxRow <= max(0, rows - 1))
                if index > 0, let previous = layout.placement(of: index - 1, scrollRow: 0) {
                    #expect(!previous.cell.intersects(place.cell), "cells overlap at \(index)")
                }
            }
            #expect(layout.placement(of: layout.pageCapacity, scrollRow: 0) == nil)
            if rows >= 2 && columns >= 1 { #expect(layout.visibleRows >= 1) }
        }
    }

    @Test func tinyTerminalStillShowsOneImageWithACaption() {
        let layout = GalleryLayout(mode: .grid, terminal: CellSize(columns: 10, rows: 5), cellPixels: px)
        #expect(layout.columns == 1)
        #expect(layout.visibleRows == 1)
        #expect(layout.captionRows == 1)
        #expect(layout.imageRows == 3)
        let place = layout.placement(of: 0, scrollRow: 0)
        #expect(place?.image == CellRect(column: 0, row: 0, columns: 10, rows: 3))
        #expect(place?.text == CellRect(column: 0, row: 3, columns: 10, rows: 1))
    }

    @Test func typicalGridUsesCellPixelSizeForColumnsAndAspect() {
        let layout = GalleryLayout(mode: .grid, terminal: CellSize(columns: 160, rows: 48), cellPixels: px)
        #expect(layout.columns == 7)      // 176 px wanted = 22 columns of 8 px, plus a 1-column gap
        #expect(layout.cellWidth == 22)
        #expect(layout.imageRows == 8)    // 176 px wide, 4:3 box → 132 px ≈ 8 rows of 16 px
        #expect(layout.captionRows == 2)
        #expect(layout.rowGap == 1)
        #expect(layout.visibleRows == 4)  // 4 × (8 + 2) + 3 gaps = 43 ≤ 47
        // Bigger cells (in pixels) give fewer, wider thumbnails in cells.
        let big = GalleryLayout(mode: .grid, terminal: CellSize(columns: 160, rows: 48), cellPixels: PixelSize(width: 16, height: 32))
        #expect(big.columns > layout.columns)
        #expect(big.cellWidth < layout.cellWidth)
    }

    @Test func columnsOverrideIsHonouredAndClamped() {
        let t = CellSize(columns: 100, rows: 30)
        #expect(GalleryLayout(mode: .grid, terminal: t, cellPixels: px, columnsOverride: 3).columns == 3)
        #expect(GalleryLayout(mode: .grid, terminal: t, cellPixels: px, columnsOverride: 1).cellWidth == 100)
        #expect(GalleryLayout(mode: .grid, terminal: t, cellPixels: px, columnsOverride: 500).columns == 20)
        #expect(GalleryLayout(mode: .grid, terminal: t, cellPixels: px, columnsOverride: 0).columns == 1)
    }

    @Test func listModeHasThumbnailAndTextSideBySide() {
        let layout = GalleryLayout(mode: .list, terminal: CellSize(columns: 80, rows: 25), cellPixels: px)
        #expect(layout.columns == 1)
        #expect(layout.visibleRows == 6)  // 24 content rows, 4 per item
        let place = layout.placement(of: 2, scrollRow: 0)
        // A 4:3 thumbnail 4 rows (64 px) high is 85 px = 11 columns wide.
        #expect(place?.image == CellRect(column: 0, row: 8, columns: 11, rows: 4))
        #expect(place?.text == CellRect(column: 12, row: 8, columns: 68, rows: 4))
    }

    @Test func hitTestingFindsTheCellUnderTheMouse() {
        let layout = GalleryLayout(mode: .grid, terminal: CellSize(columns: 160, rows: 48), cellPixels: px)
        let place = layout.placement(of: 8, scrollRow: 1)!
        #expect(layout.index(atColumn: place.cell.column, row: place.cell.row, scrollRow: 1, count: 100) == 8)
        #expect(layout.index(atColumn: place.cell.maxColumn - 1, row: place.cell.maxRow - 1, scrollRow: 1, count: 100) == 8)
        #expect(layout.index(atColumn: place.cell.maxColumn, row: place.cell.row, scrollRow: 1, count: 100) == nil)  // the gap
        #expect(layout.index(atColumn: 0, row: 47, scrollRow: 1, count: 100) == nil)  // status bar
        #expect(layout.index(atColumn: place.cell.column, row: place.cell.row, scrollRow: 1, count: 8) == nil)  // past the end
    }

    /// tmux keeps 9 images: the grid takes fewer, larger columns for the most cells within 9; with
    /// `--columns` it shows fewer rows; a list shows fewer rows.
    @Test(arguments: [(160, 48), (110, 34), (150, 45), (300, 100), (40, 20)])
    func anImageLimitCapsTheCellsOnScreen(columns: Int, rows: Int) {
        let terminal = CellSize(columns: columns, rows: rows), cell = PixelSize(width: 10, height: 20)
        let free = GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell)
        let capped = GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell, imageLimit: 9)
        #expect(capped.pageCapacity <= 9)
        #expect(capped.pageCapacity >= 1)
        if free.pageCapacity <= 9 { #expect(capped == free) }
        // No layout with fewer columns shows more cells within the limit.
        for columnCount in 1...free.columns {
            let other = GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell, columnsOverride: columnCount)
            if other.pageCapacity <= 9 { #expect(other.pageCapacity <= capped.pageCapacity) }
        }
        let fixed = GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell, columnsOverride: 5, imageLimit: 9)
        #expect(fixed.columns == GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell, columnsOverride: 5).columns)
        #expect(fixed.pageCapacity <= 9)
        let wide = GalleryLayout(mode: .grid, terminal: terminal, cellPixels: cell, columnsOverride: 12, imageLimit: 9)
        #expect(wide.pageCapacity <= 9)
        let list = GalleryLayout(mode: .list, terminal: terminal, cellPixels: cell, imageLimit: 9)
        #expect(list.pageCapacity <= 9 && list.visibleRows >= 1)
    }
}
