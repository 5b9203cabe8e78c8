import ImageCodecs

/// How a text cell is divided for `MosaicRenderer`.
public enum MosaicLayout: String, Sendable, Hashable, CaseIterable {
    /// 2×2 quadrants (`▘▝▀▖▌▞▛▗▚▐▜▄▙▟`, Unicode 1.1: in nearly every monospace font).
    case quadrants
    /// 2×3 sextants (U+1FB00–1FB3B, Symbols for Legacy Computing, Unicode 13).
    case sextants

    /// Sub-pixel rows per cell (2 columns always).
    public var rows: Int { self == .quadrants ? 2 : 3 }
}

/// Draws 2×2 (quadrants) or 2×3 (sextants) sub-pixels per cell, each cell in two colours: of every
/// way to split the cell's sub-pixels in two groups, the one with the least squared error against
/// the groups' mean colours (as chafa and notcurses do), in 24-bit, 256 or 16 colours. Twice the
/// horizontal detail of half blocks, and for sextants 1.5× the vertical.
public struct MosaicRenderer: ImageRenderer {
    /// Quadrants or sextants.
    public var layout: MosaicLayout
    /// Colour depth of the output (`.mono` counts as 16 colours).
    public var colorDepth: ColorDepth
    /// Background transparent pixels are blended against.
    public var background: RGBColor

    /// Creates a mosaic renderer.
    public init(layout: MosaicLayout, colorDepth: ColorDepth = .truecolor, background: RGBColor = .black) {
        self.layout = layout
        self.colorDepth = colorDepth == .mono ? .color16 : colorDepth
        self.background = background
    }

    /// The renderer kind for this layout and depth.
    public var kind: RendererKind { layout == .quadrants ? .quadrant(colorDepth) : .sextant(colorDepth) }

    /// Kind and background.
    public var identity: RendererIdentity { RendererIdentity(kind: kind, background: background) }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let k = layout.rows
        let grid = TextGrid.size(for: image.size, cells: cells, cellPixelSize: cellPixelSize, samplesPerCell: k)
        let sampled = PixelSize(width: grid.width * 2, height: grid.height)
        let rgb = Compositing.rgb(image, size: sampled, background: background)
        var rows: [[UInt8]] = []
        rows.reserveCapacity(grid.height / k)
        var pixels = [Int](repeating: 0, count: 2 * k * 3)
        for cellRow in 0..<(grid.height / k) {
            var line: [UInt8] = []
            line.reserveCapacity(grid.width * 40)
            var last: (foreground: Int?, background: Int?) = (nil, nil)
            for column in 0..<grid.width {
                for sub in 0..<(2 * k) {
                    let offset = ((cellRow * k + sub / 2) * sampled.width + column * 2 + sub % 2) * 3
                    pixels[sub * 3] = Int(rgb[offset])
                    pixels[sub * 3 + 1] = Int(rgb[offset + 1])
                    pixels[sub * 3 + 2] = Int(rgb[offset + 2])
                }
                let split = MosaicSplit.best(pixels, count: 2 * k)
                let foreground = colorDepth.code(split.foreground)
                let background = colorDepth.code(split.background)
                if split.mask == 0 || foreground == background {
                    // One colour (or two the palette cannot tell apart): a space, background only.
                    colorDepth.appendColors(foreground: nil, background: background, last: &last, to: &line)
                    line.append(UInt8(ascii: " "))
                } else {
                    colorDepth.appendColors(foreground: foreground, background: background, last: &last, to: &line)
                    line += MosaicSplit.glyph(mask: split.mask, layout: layout)
                }
            }
            line += EscapeSequence.reset
            rows.append(line)
        }
        return RenderedImage(
            kind: kind, bytes: RenderedImage.joinRows(rows, columns: grid.width), rows: rows,
            cells: CellSize(columns: grid.width, rows: grid.height / k), pixelSize: sampled)
    }
}
