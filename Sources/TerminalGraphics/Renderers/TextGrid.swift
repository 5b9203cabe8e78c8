import ImageCodecs

/// Geometry for text renderers: how many image samples fit in a cell rectangle when each cell
/// shows `samplesPerCell` vertical samples and cells are `cellPixelSize` pixels.
enum TextGrid {
    /// The sample grid (width in cells, height in samples) with the image's aspect ratio as it will
    /// look on screen. `samplesPerCell` is 2 for half blocks, 1 for ASCII. Height is a multiple of
    /// `samplesPerCell`.
    static func size(
        for image: PixelSize, cells: CellSize, cellPixelSize: PixelSize, samplesPerCell: Int
    ) -> PixelSize {
        // A sample is cellWidth wide and cellHeight/samplesPerCell tall on screen.
        let sampleWidth = Double(cellPixelSize.width)
        let sampleHeight = Double(cellPixelSize.height) / Double(samplesPerCell)
        let physical = (Double(image.width), Double(image.height))
        let maxWidth = Double(cells.columns) * sampleWidth
        let maxHeight = Double(cells.rows * samplesPerCell) * sampleHeight
        let scale = min(maxWidth / physical.0, maxHeight / physical.1)
        var columns = Int((physical.0 * scale / sampleWidth).rounded())
        var samples = Int((physical.1 * scale / sampleHeight).rounded())
        columns = max(1, min(cells.columns, columns))
        samples = max(samplesPerCell, min(cells.rows * samplesPerCell, samples))
        samples -= samples % samplesPerCell
        return PixelSize(width: columns, height: samples)
    }
}
