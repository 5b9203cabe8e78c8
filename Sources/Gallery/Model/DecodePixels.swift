import ImageCodecs

/// How many pixels of a decoded image one cell can show: all of the cell's pixels for a bitmap
/// renderer; for a text renderer only its samples (half blocks 1×2, quadrants 2×2, sextants 2×3),
/// so decoding more is wasted — and a camera's 160×120 EXIF thumbnail or a JPEG's 1/8 scale
/// then often holds every pixel a cell shows.
public enum DecodePixels {
    /// Pixels of decoded image per cell: `cellPixels` for bitmaps (`samples` nil); for text, the
    /// cell's pixels scaled down until its finer sample axis has one pixel per sample (the cell's
    /// aspect kept, so an image fitted into a rectangle of such cells gets at least one pixel per
    /// sample on both axes), never more than the cell's pixels. A 10×20 cell: half blocks 1×2,
    /// quadrants and sextants 2×4.
    public static func perCell(cellPixels: PixelSize, samples: PixelSize?) -> PixelSize {
        guard let samples, samples.width > 0, samples.height > 0, cellPixels.width > 0, cellPixels.height > 0 else { return cellPixels }
        let pixelsPerSample = min(Double(cellPixels.width) / Double(samples.width), Double(cellPixels.height) / Double(samples.height))
        guard pixelsPerSample > 1 else { return cellPixels }
        return PixelSize(width: min(cellPixels.width, Int((Double(cellPixels.width) / pixelsPerSample).rounded(.up))),
                         height: min(cellPixels.height, Int((Double(cellPixels.height) / pixelsPerSample).rounded(.up))))
    }
}
