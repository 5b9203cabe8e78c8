/// A size in pixels. Used for decoded images and for target boxes ("decode to fit within").
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Number of pixels (`width * height`), saturating instead of overflowing.
    public var area: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// The largest size with this size's aspect ratio that fits inside `box`, never upscaled,
    /// never smaller than 1×1.
    public func fitting(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return self }
        if width <= box.width && height <= box.height { return self }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded()))
        )
    }

    /// "W×H".
    public var description: String { "\(width)×\(height)" }
}
