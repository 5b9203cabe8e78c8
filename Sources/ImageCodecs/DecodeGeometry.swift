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
    /// The same from a decoder's own buffer of `size` RGBA pixels: scaled straight from it (no copy
    /// of the whole image first), copied only when it is the target already.
    func finish(_ pixels: UnsafePointer<UInt8>, size: PixelSize, denominator: Int = 1) -> Image {
        let extent = (Double(stored.width) / Double(denominator), Double(stored.height) / Double(denominator))
        let exact = extent.0 == Double(size.width) && extent.1 == Double(size.height)
        if size == target && exact { return finish(Bitmap(copying: pixels, width: size.width, height: size.height), denominator: denominator) }
        let buffer = UnsafeBufferPointer(start: pixels, count: size.width * size.height * 4)
        return ImageScaler.areaAverage(buffer, width: size.width, height: size.height, to: target, extent: extent)
            .oriented(orientation).image(sourceSize: display)
    }

    func finish(_ bitmap: Bitmap, denominator: Int = 1) -> Image {
        let extent = (Double(stored.width) / Double(denominator), Double(stored.height) / Double(denominator))
        return bitmap.scaled(to: target, extent: extent).oriented(orientation).image(sourceSize: display)
    }
}
