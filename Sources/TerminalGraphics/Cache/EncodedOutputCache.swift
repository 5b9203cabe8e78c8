import ImageCodecs
import Locking

/// Identifies one encoded output: the image, the cell rectangle, the renderer (kind, colour depth,
/// background, passthrough) and the cell pixel size.
public struct EncodedOutputKey: Sendable, Hashable {
    /// `Image.id`.
    public var imageID: UInt64
    /// The requested cell rectangle.
    public var cells: CellSize
    /// The renderer and its settings.
    public var renderer: RendererIdentity
    /// The cell pixel size.
    public var cellPixelSize: PixelSize
    /// Whether it is the whole animation the terminal plays (`AnimationRenderer`), not a still.
    public var animation: Bool

    /// Creates a key.
    public init(imageID: UInt64, cells: CellSize, renderer: RendererIdentity, cellPixelSize: PixelSize, animation: Bool = false) {
        self.imageID = imageID
        self.cells = cells
        self.renderer = renderer
        self.cellPixelSize = cellPixelSize
        self.animation = animation
    }
}

/// A thread-safe, cost-bounded LRU cache of encoded terminal output, so a repaint (scrolling back,
/// redrawing after a resize of another cell) costs a dictionary lookup instead of an encode.
///
/// ```swift
/// let cache = EncodedOutputCache(costLimit: 32 << 20)
/// let out = try cache.render(image, cells: cells, cellPixelSize: cell, with: renderer)
/// ```
public final class EncodedOutputCache: Sendable {
    /// Counters, for tests and `--stats`.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found an entry.
        public var hits = 0
        /// Lookups that did not.
        public var misses = 0
        /// Encodes performed through `render`.
        public var encodes = 0
        /// Entries dropped to stay under the cost limit.
        public var evictions = 0
    }

    struct Entry {
        var value: RenderedImage
        var cost: Int
        var lastUse: UInt64
    }

    struct State {
        var entries: [EncodedOutputKey: Entry] = [:]
        var totalCost = 0
        var clock: UInt64 = 0
        var statistics = Statistics()
        /// kitty image ids whose last entry was dropped: the terminal may free their data.
        var freedKittyIDs: [UInt32] = []

        /// Notes the kitty ids of `dropped` that no remaining entry uses.
        mutating func noteDropped(_ dropped: [Entry]) {
            let ids = Set(dropped.compactMap(\.value.upload?.id))
            guard !ids.isEmpty else { return }
            let kept = Set(entries.values.compactMap(\.value.upload?.id))
            freedKittyIDs += ids.subtracting(kept).sorted()
        }
    }

    /// Upper bound on the summed `RenderedImage.cost` of all entries.
    public let costLimit: Int
    let state = Locked(State())

    /// Creates a cache holding at most `costLimit` bytes of output.
    public init(costLimit: Int = 64 << 20) {
        self.costLimit = max(0, costLimit)
    }

    /// The cached output for `key`, marking it recently used.
    public func value(for key: EncodedOutputKey) -> RenderedImage? {
        state.withLock { s in
            guard var entry = s.entries[key] else {
                s.statistics.misses += 1
                return nil
            }
            s.clock += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            s.statistics.hits += 1
            return entry.value
        }
    }

    /// Stores `value`, evicting least recently used entries past the cost limit. A value costing more
    /// than the whole limit is not stored.
    public func insert(_ value: RenderedImage, for key: EncodedOutputKey) {
        let cost = value.cost
        state.withLock { s in
            if let old = s.entries.removeValue(forKey: key) { s.totalCost -= old.cost }
            guard cost <= costLimit else { return }
            s.clock += 1
            s.entries[key] = Entry(value: value, cost: cost, lastUse: s.clock)
            s.totalCost += cost
            guard s.totalCost > costLimit else { return }
            // Evict oldest first down to 90% of the limit, so evictions are batched.
            let target = costLimit - costLimit / 10
            var dropped: [Entry] = []
            for (victim, entry) in s.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                if s.totalCost <= target { break }
                s.entries.removeValue(forKey: victim)
                s.totalCost -= entry.cost
                s.statistics.evictions += 1
                dropped.append(entry)
            }
            s.noteDropped(dropped)
        }
    }

    /// The cached output for this image/rectangle/renderer, or a fresh encode (stored). The encode
    /// runs outside the lock; two threads missing the same key at once may both encode.
    public func render(
        _ image: Image, cells: CellSize, cellPixelSize: PixelSize, with renderer: any ImageRenderer
    ) throws(RenderError) -> RenderedImage {
        let key = EncodedOutputKey(imageID: image.id, cells: cells, renderer: renderer.identity, cellPixelSize: cellPixelSize)
        if let hit = value(for: key) { return hit }
        let rendered = try renderer.render(image, cells: cells, cellPixelSize: cellPixelSize)
        state.withLock { $0.statistics.encodes += 1 }
        insert(rendered, for: key)
        return rendered
    }

    /// The cached animation of `image` for the terminal to play, or a fresh encode of every frame
    /// (stored), as `render`.
    public func renderAnimation(
        _ image: Image, cells: CellSize, cellPixelSize: PixelSize, with renderer: any AnimationRenderer
    ) throws(RenderError) -> RenderedImage {
        let key = EncodedOutputKey(imageID: image.id, cells: cells, renderer: renderer.identity, cellPixelSize: cellPixelSize, animation: true)
        if let hit = value(for: key) { return hit }
        let rendered = try renderer.renderAnimation(image, cells: cells, cellPixelSize: cellPixelSize)
        state.withLock { $0.statistics.encodes += 1 }
        insert(rendered, for: key)
        return rendered
    }

    /// Drops every entry of one image (e.g. when the image cache evicts it).
    public func removeAll(imageID: UInt64) {
        state.withLock { s in
            var dropped: [Entry] = []
            for (key, entry) in s.entries where key.imageID == imageID {
                s.entries.removeValue(forKey: key)
                s.totalCost -= entry.cost
                dropped.append(entry)
            }
            s.noteDropped(dropped)
        }
    }

    /// Drops everything (e.g. after the cell size changed).
    public func removeAll() {
        state.withLock { s in
            let dropped = Array(s.entries.values)
            s.entries.removeAll()
            s.totalCost = 0
            s.noteDropped(dropped)
        }
    }

    /// The kitty image ids no entry holds any more since the last call (evicted or removed), so the
    /// terminal can free their data (`a=d,d=I`). A later encode of the same image transmits again.
    public func takeFreedKittyImageIDs() -> [UInt32] {
        state.withLock { s in
            defer { s.freedKittyIDs.removeAll() }
            return s.freedKittyIDs
        }
    }

    /// Current counters.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Number of entries.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Summed cost of all entries.
    public var totalCost: Int { state.withLock { $0.totalCost } }
}
