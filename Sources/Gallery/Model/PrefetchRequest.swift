import ImageCodecs

/// A low-priority load to warm the cache for an item that is not on screen yet.
public struct PrefetchRequest: Sendable, Hashable {
    /// The item index.
    public var index: Int
    /// The pixel size it will be shown at.
    public var target: PixelSize
}
