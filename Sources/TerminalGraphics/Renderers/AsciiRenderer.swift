import ImageCodecs

/// Draws an image with characters of increasing ink (`" .:-=+*#%@"`) for monochrome terminals,
/// one sample per cell, aspect ratio kept for the real cell size. On a light background the ramp
/// is reversed so bright pixels stay blank.
public struct AsciiRenderer: ImageRenderer {
    /// Background transparent pixels are blended against; its lightness picks the ramp direction.
    public var background: RGBColor
    /// Characters from least to most ink.
    public static let ramp: [UInt8] = Array(" .:-=+*#%@".utf8)

    /// Creates an ASCII renderer.
    public init(background: RGBColor = .black) {
        self.background = background
    }

    /// Kind `.ascii` with the background.
    public var identity: RendererIdentity { RendererIdentity(kind: .ascii, background: background) }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let grid = TextGrid.size(for: image.size, cells: cells, cellPixelSize: cellPixelSize, samplesPerCell: 1)
        let rgb = Compositing.rgb(image, size: grid, background: background)
        let lightBackground = background.luminance > 0.5
        let last = Double(Self.ramp.count - 1)
        var rows: [[UInt8]] = []
        for y in 0..<grid.height {
            var line: [UInt8] = []
            line.reserveCapacity(grid.width)
            for x in 0..<grid.width {
                let i = (y * grid.width + x) * 3
                var lum = RGBColor(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2]).luminance
                if lightBackground { lum = 1 - lum }
                line.append(Self.ramp[Int((lum * last).rounded())])
            }
            rows.append(line)
        }
        return RenderedImage(
            kind: .ascii, bytes: RenderedImage.joinRows(rows, columns: grid.width), rows: rows,
            cells: CellSize(columns: grid.width, rows: grid.height), pixelSize: grid)
    }
}
