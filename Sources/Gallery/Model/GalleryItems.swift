/// The gallery's items, O(touched) in memory: an item is made from its list line when read
/// (`URLListIndex.entry(at:)` parses just that line) and stored only once something about it
/// changes (state, size, format). A 10⁶-line list costs its index plus the items that were on
/// screen, not 10⁶ `GalleryItem`s.
///
/// ```swift
/// var items = GalleryItems(index: index)
/// items[7].state = .final      // item 7 is now kept; the others are still made on demand
/// ```
public struct GalleryItems: Sendable {
    private let index: URLListIndex?
    private var fixed: [GalleryItem]
    private var touched: [Int: GalleryItem] = [:]

    /// Items made on demand from `index`.
    public init(index: URLListIndex) {
        self.index = index
        self.fixed = []
    }

    /// Items given up front (small lists, tests, the demo).
    public init(_ items: [GalleryItem]) {
        self.index = nil
        self.fixed = items
    }

    /// Number of items.
    public var count: Int { index?.count ?? fixed.count }

    /// `0..<count`.
    public var indices: Range<Int> { 0..<count }

    /// How many items are held in memory beyond the index (changed items, or every item of a fixed list).
    public var heldCount: Int { index == nil ? fixed.count : touched.count }

    /// The item at `position`; setting keeps it.
    public subscript(position: Int) -> GalleryItem {
        get {
            guard let index else { return fixed[position] }
            return touched[position] ?? GalleryItem(index.entry(at: position))
        }
        set {
            // Back to its untouched form (a cancelled load): nothing to keep.
            if index != nil, newValue.state == .placeholder, newValue.problem == nil, newValue.pixelSize == nil,
               newValue.byteCount == nil, newValue.format == nil, newValue.origin == nil {
                touched[position] = nil
            } else if index != nil {
                touched[position] = newValue
            } else {
                fixed[position] = newValue
            }
        }
    }
}
