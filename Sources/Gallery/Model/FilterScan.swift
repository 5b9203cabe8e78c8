/// One scan of the `/` filter over a list too long to scan between two frames: it runs off the UI
/// thread (`GalleryApp+Filter`) a chunk of lines at a time, and each chunk's matches go back to the
/// model as `FilterResults`, so "k of n" counts up while the keys keep working. A newer key's scan
/// (or Esc) makes it stale: it stops at the next chunk and its results are dropped.
public struct FilterScan: Sendable {
    /// The model's filter generation this scan serves.
    public let generation: Int
    /// What is searched for (ASCII case ignored).
    public let needle: String
    /// The list positions to scan, in order.
    public let range: Range<Int>
    /// The items as they were when the scan began (their lines are what is read).
    let items: GalleryItems

    /// Lines per chunk: a few milliseconds of scanning each.
    static let chunkLines = 131_072

    /// Scans `range` in chunks, in order, handing each chunk's matches to `deliver`; stops early
    /// (nothing more delivered) as soon as `isCurrent` says the scan was replaced.
    func run(isCurrent: () -> Bool, deliver: (FilterResults) -> Void) {
        var next = range.lowerBound
        repeat {
            guard isCurrent() else { return }
            let end = min(range.upperBound, next + Self.chunkLines)
            let found = items.positions(containing: needle, in: next..<end)
            deliver(FilterResults(generation: generation, positions: found, scannedThrough: end, done: end == range.upperBound))
            next = end
        } while next < range.upperBound
    }
}

/// One chunk of a `FilterScan`'s matches.
public struct FilterResults: Sendable {
    /// The filter generation they belong to (stale ones are dropped).
    public let generation: Int
    /// Matching list positions, in order, all after those delivered before.
    public let positions: [Int]
    /// The list position the scan has reached.
    public let scannedThrough: Int
    /// Whether the scan is finished.
    public let done: Bool
}
