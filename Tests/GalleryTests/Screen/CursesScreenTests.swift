import ImageCodecs
import Testing
@testable import Gallery

@Suite struct CursesScreenTests {
    @Test func theProbedCellSizeIsKeptWhenTheWindowSizeHasNoPixels() {
        // The old screen fell back to 8×16 on every resize (and at start-up the loop overwrote the
        // probed size with it) when TIOCGWINSZ carried no pixel size, as in tmux and mlterm.
        let probed = PixelSize(width: 10, height: 20)
        #expect(CursesScreen.cellPixels(columns: 80, rows: 24, xpixel: 0, ypixel: 0, probed: probed) == probed)
        #expect(CursesScreen.cellPixels(columns: 80, rows: 24, xpixel: 0, ypixel: 0, probed: nil) == PixelSize(width: 8, height: 16))
        #expect(CursesScreen.cellPixels(columns: 80, rows: 24, xpixel: 720, ypixel: 408, probed: probed) == PixelSize(width: 9, height: 17))
    }
}
