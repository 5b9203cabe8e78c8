import ImageCodecs

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

    /// Creates an empty diff.
    public init() {}

    /// Whether nothing has to be done.
    public var isEmpty: Bool {
        cancels.isEmpty && binds.isEmpty && prefetchStarts.isEmpty && prefetchCancels.isEmpty
    }
}
