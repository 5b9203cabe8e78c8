/// Sizes of one decode: the file's stored size, its display (oriented) size, the size to produce,
/// and the libjpeg DCT scale that reaches it cheapest.
struct DecodeGeometry {
    /// Size of the pixels as stored in the file.
    let stored: PixelSize
    /// Orientation to apply after decoding.
    let orientation: ExifOrientation
    /// Display size of the whole file (stored size after orientation): the image's `sourceSize`.
    let display: PixelSize
    /// Final size in stored (un-oriented) axes: the display fit turned back.
    let target: PixelSize

    init(stored: PixelSize, orientation: ExifOrientation = .up, box: PixelSize?) {
        self.stored = stored
        self.orientation = orientation
        let display = orientation.oriented(stored)
        self.display = display
        let fit = box.map { display.fitting(in: $0) } ?? display
        target = orientation.oriented(fit)
    }

    /// The largest libjpeg denominator (8, 4, 2, 1) whose output, ⌈size / d⌉, still covers `target`.
    var jpegScaleDenominator: Int {
        for d in [8, 4, 2] {
            let w = (stored.width + d - 1) / d, h = (stored.height + d - 1) / d
            if w >= target.width && h >= target.height { return d }
        }
        return 1
    }

    /// Throws `.tooLarge` when the stored size exceeds the pixel cap.
    func checkLimit(_ limit: Int) throws {
        if stored.area > limit { throw DecodeError.tooLarge(width: stored.width, height: stored.height) }
    }

    /// A decoded bitmap finished into an `Image`: scaled to the target, then oriented. For a JPEG
    /// decoded at 1/`denominator`, the last row and column stand for partial blocks: only
    /// stored / denominator pixels of content map onto the target, so the image is not stretched.
    func finish(_ bitmap: Bitmap, denominator: Int = 1) -> Image {
        let extent = (Double(stored.width) / Double(denominator), Double(stored.height) / Double(denominator))
        return bitmap.scaled(to: target, extent: extent).oriented(orientation).image(sourceSize: display)
    }
}
