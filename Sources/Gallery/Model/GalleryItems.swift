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
    /// The list, as one index or (read from a pipe as lines arrive) several, one after another.
    private var chunks: [URLListIndex]
    /// The list position of each chunk's first line.
    private var chunkStarts: [Int]
    private var index: URLListIndex? { chunks.first }
    private var fixed: [GalleryItem]
    private var touched: [Int: GalleryItem] = [:]
    /// The filter (`/`): list positions shown, in order; nil shows everything.
    private var shown: [Int]?

    /// Items made on demand from `index`.
    public init(index: URLListIndex) {
        self.chunks = [index]
        self.chunkStarts = [0]
        self.fixed = []
    }

    /// Items given up front (small lists, tests, the demo).
    public init(_ items: [GalleryItem]) {
        self.chunks = []
        self.chunkStarts = []
        self.fixed = items
    }

    /// Adds the lines of `more` after the others (a list still arriving on a pipe). With a filter on,
    /// those of them that contain `filter` are shown too.
    public mutating func append(_ more: URLListIndex, filter: String?) {
        guard index != nil, more.count > 0 else { return }
        let start = totalCount
        chunks.append(more)
        chunkStarts.append(start)
        if shown != nil, let filter { shown! += more.positions(containing: filter).map { $0 + start } }
    }

    /// The chunk holding list position `position`, and the position inside it.
    private func locate(_ position: Int) -> (URLListIndex, Int) {
        if chunks.count == 1 { return (chunks[0], position) }
        var low = 0, high = chunkStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return (chunks[low], position - chunkStarts[low])
    }

    /// Number of items shown (all of them, or those the filter kept).
    public var count: Int { shown?.count ?? totalCount }

    /// Number of items in the list.
    public var totalCount: Int { index == nil ? fixed.count : (chunkStarts.last ?? 0) + (chunks.last?.count ?? 0) }

    /// Whether a filter is on.
    public var isFiltered: Bool { shown != nil }

    /// Shows only the list positions `positions` (in order), or everything for nil. Positions
    /// outside the list are dropped. Item state stays with the item, not with where it is shown.
    public mutating func show(only positions: [Int]?) {
        let total = totalCount
        shown = positions.map { $0.filter { $0 >= 0 && $0 < total } }
    }

    /// The list positions whose line (URL or path as written, and title) contains `needle`,
    /// ignoring ASCII case. Reads the raw lines: nothing is parsed.
    public func positions(containing needle: String) -> [Int] {
        if index != nil {
            return zip(chunks, chunkStarts).flatMap { chunk, start in chunk.positions(containing: needle).map { $0 + start } }
        }
        let lowered = needle.lowercased()
        return fixed.indices.filter { position in
            let entry = fixed[position].entry
            return (entry.location.description + " " + (entry.title ?? "")).lowercased().contains(lowered)
        }
    }

    /// The list positions in `range` whose line contains `needle` (as `positions(containing:)`),
    /// giving back the file pages the scan read: one chunk of the `/` filter's scan.
    public func positions(containing needle: String, in range: Range<Int>) -> [Int] {
        guard index != nil else { return positions(containing: needle).filter(range.contains) }
        var found: [Int] = []
        for (chunk, start) in zip(chunks, chunkStarts) where start < range.upperBound && start + chunk.count > range.lowerBound {
            let inner = (range.lowerBound - start)..<(range.upperBound - start)
            found += chunk.positions(containing: needle, in: inner, releasingPages: true).map { $0 + start }
        }
        return found
    }

    /// Shows `positions` too, after those shown (a filter scan's next results, in list order).
    public mutating func showMore(_ positions: [Int]) {
        guard shown != nil else { return }
        let total = totalCount
        shown! += positions.filter { $0 >= 0 && $0 < total }
    }

    /// `0..<count`.
    public var indices: Range<Int> { 0..<count }

    /// How many items are held in memory beyond the index (changed items, or every item of a fixed list).
    public var heldCount: Int { index == nil ? fixed.count : touched.count }

    /// The item at `position`; setting keeps it.
    public subscript(shownPosition: Int) -> GalleryItem {
        get { self[listPosition: shown?[shownPosition] ?? shownPosition] }
        set { self[listPosition: shown?[shownPosition] ?? shownPosition] = newValue }
    }

    /// The item at list position `position`, whatever the filter shows.
    subscript(listPosition position: Int) -> GalleryItem {
        get {
            guard index != nil else { return fixed[position] }
            if let item = touched[position] { return item }
            let (chunk, inner) = locate(position)
            return GalleryItem(chunk.entry(at: inner))
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
