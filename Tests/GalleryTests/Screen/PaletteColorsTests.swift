import Testing
@testable import Gallery

@Suite struct PaletteColorsTests {
    @Test func theSelectedCaptionStaysWhiteOnBlueWithFewColours() {
        // The selected caption is palette 231 on 25. With 8 or 16 colours the old reduction turned
        // 231 into the default foreground: black on blue on a light terminal.
        let title = GalleryTheme.colour.selectedTitle
        for colors in [8, 16] {
            let fg = PaletteColors.cursesColor(title.foreground, colors: colors)
            let bg = PaletteColors.cursesColor(title.background, colors: colors)
            #expect(fg == (colors >= 16 ? 15 : 7), "foreground with \(colors) colours")
            #expect(bg == 4 || bg == 12, "background with \(colors) colours")
        }
        #expect(PaletteColors.cursesColor(title.foreground, colors: 256) == 231)
    }

    @Test func darkGraysAreBlackAndMidGraysTheDefault() {
        #expect(PaletteColors.cursesColor(.palette(237), colors: 16) == 0)
        #expect(PaletteColors.cursesColor(.rgb(128, 128, 128), colors: 16) == -1)
        #expect(PaletteColors.cursesColor(.rgb(200, 30, 30), colors: 8) == 1)
    }
}
