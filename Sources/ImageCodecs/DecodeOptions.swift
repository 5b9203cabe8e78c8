/// How to decode: target box, limits, animation.
public struct DecodeOptions: Sendable, Hashable {
    /// Default pixel cap: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000

    /// Decode to fit within this box (aspect ratio kept, never upscaled); `nil` means full size.
    public var targetSize: PixelSize?
    /// Images whose header announces more pixels than this are rejected with `DecodeError.tooLarge`
    /// before any pixel buffer is allocated.
    public var pixelLimit: Int
    /// Decode only the first frame of an animation.
    public var firstFrameOnly: Bool

    /// Creates options.
    public init(targetSize: PixelSize? = nil, pixelLimit: Int = DecodeOptions.defaultPixelLimit, firstFrameOnly: Bool = false) {
        self.targetSize = targetSize
        self.pixelLimit = pixelLimit
        self.firstFrameOnly = firstFrameOnly
    }
}
