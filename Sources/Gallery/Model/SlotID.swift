import ImageCodecs

/// Identifies one reusable on-screen slot (the gallery's equivalent of a reusable table cell). Items
/// that stay visible keep their slot; a slot freed by an item that left the screen is reused.
public struct SlotID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The slot number (small, dense, reused).
    public let rawValue: Int

    /// Creates a slot id.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders by number.
    public static func < (lhs: SlotID, rhs: SlotID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "slot 3".
    public var description: String { "slot \(rawValue)" }
}

/// A slot bound to an item at a target pixel size. Staleness is not decided here: the slot's
/// `ImageSlot` (in `ManagerImageSource`) drops every completion of a load it cancelled or replaced.
public struct SlotBinding: Sendable, Hashable {
    /// The slot.
    public var slot: SlotID
    /// The item index.
    public var index: Int
    /// The pixel size the image should be decoded to fit.
    public var target: PixelSize
}

/// A low-priority load to warm the cache for an item that is not on screen yet.
public struct PrefetchRequest: Sendable, Hashable {
    /// The item index.
    public var index: Int
    /// The pixel size it will be shown at.
    public var target: PixelSize
}

/// What the loaders must do after a model change. Apply in this order: `cancels`, `prefetchCancels`,
/// `binds`, `prefetchStarts`.
public struct BindingDiff: Sendable, Hashable {
    /// Slots whose load must be cancelled (their item left the screen or changed target size).
    public var cancels: [SlotBinding] = []
    /// New bindings, most important first (nearest the selection). With a LIFO queue, enqueue them in
    /// reverse so the most important starts first.
    public var binds: [SlotBinding] = []
    /// Prefetches to start (low priority), in the order the user will reach them.
    public var prefetchStarts: [PrefetchRequest] = []
    /// Prefetches to cancel (the user reversed direction or jumped away).
    public var prefetchCancels: [PrefetchRequest] = []
    /// Prefetched items that are now on screen: leave their transfer running; the visible bind joins it.
    public var prefetchPromoted: [PrefetchRequest] = []

    /// Creates an empty diff.
    public init() {}

    /// Whether nothing has to be done.
    public var isEmpty: Bool {
        cancels.isEmpty && binds.isEmpty && prefetchStarts.isEmpty && prefetchCancels.isEmpty && prefetchPromoted.isEmpty
    }
}
