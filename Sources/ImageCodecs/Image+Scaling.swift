extension Image {
    /// This image's pixels scaled to `size` by area averaging, alpha-weighted so transparent pixels
    /// do not bleed their colour (`ImageScaler`, the one scaler): straight-alpha RGBA8,
    /// `size.width * size.height * 4` bytes. The pixels themselves when already that size.
    public func pixels(scaledTo size: PixelSize) -> [UInt8] {
        guard size.width > 0, size.height > 0, size != self.size else { return pixels }
        return ImageScaler.areaAverage(Bitmap(width: width, height: height, pixels: pixels), to: size).pixels
    }
}

extension PixelSize {
    /// The largest size with this size's aspect ratio that fits inside `box`, up- or down-scaled,
    /// at least 1×1 (`fitting(in:)` never upscales).
    public func scaledToFit(_ box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return PixelSize(width: 1, height: 1) }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return PixelSize(
            width: min(box.width, max(1, Int((Double(width) * scale).rounded()))),
            height: min(box.height, max(1, Int((Double(height) * scale).rounded())))
        )
    }
}
