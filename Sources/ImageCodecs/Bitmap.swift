/// An internal RGBA8 straight-alpha buffer being worked on (scaled, oriented) before it becomes an
/// `Image`.
struct Bitmap {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    var size: PixelSize { PixelSize(width: width, height: height) }

    /// Copies `width × height × 4` bytes from a C buffer.
    init(copying pointer: UnsafePointer<UInt8>, width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = Array(UnsafeBufferPointer(start: pointer, count: width * height * 4))
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// This bitmap scaled to `size` by area averaging (alpha-weighted), or itself if already that size.
    /// `extent` is the part of the bitmap holding real content (see `ImageScaler.areaAverage`).
    func scaled(to size: PixelSize, extent: (width: Double, height: Double)? = nil) -> Bitmap {
        guard size.width > 0, size.height > 0 else { return self }
        let exact = extent.map { $0.width == Double(width) && $0.height == Double(height) } ?? true
        if size == self.size && exact { return self }
        return ImageScaler.areaAverage(self, to: size, extent: extent)
    }

    /// This bitmap with an EXIF orientation applied (so it displays upright).
    func oriented(_ orientation: ExifOrientation) -> Bitmap {
        orientation == .up ? self : orientation.apply(to: self)
    }

    /// Wraps the bitmap as a still `Image`.
    func image(sourceSize: PixelSize) -> Image {
        Image(width: width, height: height, pixels: pixels, sourceSize: sourceSize)
    }
}
