import ImageCodecs

/// Draws two pixels per cell with `▀` (upper half block): foreground = upper pixel, background =
/// lower pixel, in 24-bit, 256 or 16 colours. The sampling grid keeps the image's aspect ratio for
/// the real cell size. SGR codes are only re-emitted when they change along a row; each row ends
/// with `CSI 0 m`.
public struct HalfBlockRenderer: ImageRenderer {
    /// Colour depth of the output (`.mono` falls back to 16 colours; use `AsciiRenderer` instead).
    public var colorDepth: ColorDepth
    /// Background transparent pixels are blended against.
    public var background: RGBColor

    /// Creates a half-block renderer.
    public init(colorDepth: ColorDepth = .truecolor, background: RGBColor = .black) {
        self.colorDepth = colorDepth
        self.background = background
    }

    /// Kind `.halfBlock(colorDepth)` with the background.
    public var identity: RendererIdentity { RendererIdentity(kind: .halfBlock(colorDepth), background: background) }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let grid = TextGrid.size(for: image.size, cells: cells, cellPixelSize: cellPixelSize, samplesPerCell: 2)
        let rgb = Compositing.rgb(image, size: grid, background: background)
        let upperHalf: [UInt8] = [0xE2, 0x96, 0x80]  // U+2580 ▀
        var rows: [[UInt8]] = []
        rows.reserveCapacity(grid.height / 2)
        for cellRow in 0..<(grid.height / 2) {
            var line: [UInt8] = []
            line.reserveCapacity(grid.width * 40)
            var last: (foreground: Int?, background: Int?) = (nil, nil)
            for x in 0..<grid.width {
                let top = (cellRow * 2 * grid.width + x) * 3
                let bottom = ((cellRow * 2 + 1) * grid.width + x) * 3
                let topCode = colorDepth.code(RGBColor(r: rgb[top], g: rgb[top + 1], b: rgb[top + 2]))
                let bottomCode = colorDepth.code(RGBColor(r: rgb[bottom], g: rgb[bottom + 1], b: rgb[bottom + 2]))
                colorDepth.appendColors(foreground: topCode, background: bottomCode, last: &last, to: &line)
                line += upperHalf
            }
            line += EscapeSequence.reset
            rows.append(line)
        }
        return RenderedImage(
            kind: .halfBlock(colorDepth), bytes: RenderedImage.joinRows(rows, columns: grid.width), rows: rows,
            cells: CellSize(columns: grid.width, rows: grid.height / 2), pixelSize: grid)
    }
}
