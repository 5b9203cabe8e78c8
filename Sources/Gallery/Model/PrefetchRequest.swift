import ImageCodecs

/// A low-priority load to warm the cache for an item that is not on screen yet.
public struct PrefetchRequest: Sendable, Hashable {
    /// The item index.
    public var index: Int
    /// The pixel size it will be shown at.
    public var target: PixelSize
    /// Whether it is shown playing (the full view, and cells with `--animate`: every frame
    /// decoded); else a still (`BindOptions.firstFrameOnly`).
    public var animated = false

    /// Creates a request.
    public init(index: Int, target: PixelSize, animated: Bool = false) {
        self.index = index
        self.target = target
        self.animated = animated
    }

    /// What this load's kind asks on top of the defaults: a still decodes the first frame only.
    public var bindOptions: BindOptions { animated ? [] : .firstFrameOnly }
}
