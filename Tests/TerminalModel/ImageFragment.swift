/// Which image a picture came from: a sixel by the hash of its data, a kitty image by its id.
public enum ImageKey: Sendable, Hashable, CustomStringConvertible {
    /// A sixel image: FNV-1a hash of the bytes between `ESC P` and `ESC \`.
    case sixel(UInt64)
    /// A kitty image id (`i=`).
    case kitty(UInt32)

    public var description: String {
        switch self {
        case .sixel(let hash): return "sixel#" + String(hash, radix: 16)
        case .kitty(let id): return "kitty#\(id)"
        }
    }
}

/// The part of an image one cell shows: the image, the placement that put it there (kitty's `p=`;
/// 0 for sixel) and the cell's offset inside the image, in cells.
public struct ImageFragment: Sendable, Hashable, CustomStringConvertible {
    /// The image.
    public var image: ImageKey
    /// kitty's placement id (0 for sixel and for kitty placements without `p=`).
    public var placement: UInt32
    /// Column offset of this cell inside the image.
    public var dx: Int
    /// Row offset of this cell inside the image.
    public var dy: Int

    /// Creates a fragment.
    public init(image: ImageKey, placement: UInt32 = 0, dx: Int, dy: Int) {
        self.image = image
        self.placement = placement
        self.dx = dx
        self.dy = dy
    }

    public var description: String { "\(image)+\(dx),\(dy)" }
}
