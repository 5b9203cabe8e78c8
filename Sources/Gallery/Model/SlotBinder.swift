import ImageCodecs

/// Keeps the slot → item bindings and the prefetch window, and turns each new desired state into a
/// `BindingDiff` with as few cancels as possible. Pure value type.
public struct SlotBinder: Sendable, Hashable {
    /// Current bindings by slot.
    public private(set) var bindings: [SlotID: SlotBinding] = [:]
    /// Current prefetch window.
    public private(set) var prefetching: Set<PrefetchRequest> = []

    /// Creates an empty binder.
    public init() {}

    /// The binding of `slot`, if any.
    public func binding(of slot: SlotID) -> SlotBinding? { bindings[slot] }

    /// Moves to the desired state: `visible` items (in priority order, each at its target size) and the
    /// `prefetch` window. Returns what to cancel, bind and prefetch.
    public mutating func reconcile(visible: [PrefetchRequest], prefetch: [PrefetchRequest]) -> BindingDiff {
        var diff = BindingDiff()
        let wanted = Set(visible)
        var kept = Set<PrefetchRequest>()
        for slot in bindings.keys.sorted() {
            guard let binding = bindings[slot] else { continue }
            let key = binding.request
            if wanted.contains(key) && !kept.contains(key) {
                kept.insert(key)
            } else {
                diff.cancels.append(binding)
                bindings[slot] = nil
            }
        }
        var free = freeSlots()
        for request in visible where !kept.contains(request) {
            kept.insert(request)
            let slot = free.isEmpty ? SlotID((bindings.keys.max()?.rawValue ?? -1) + 1) : free.removeFirst()
            let binding = SlotBinding(slot: slot, index: request.index, target: request.target, animated: request.animated)
            bindings[slot] = binding
            diff.binds.append(binding)
        }
        let window = prefetch.filter { !wanted.contains($0) }
        let windowSet = Set(window)
        diff.prefetchStarts = window.filter { !prefetching.contains($0) }
        let leaving = prefetching.subtracting(windowSet)
        diff.prefetchCancels = leaving.filter { !wanted.contains($0) }.sorted { $0.index < $1.index }
        prefetching = windowSet
        return diff
    }

    /// Unused slot numbers below the highest in use, lowest first.
    private func freeSlots() -> [SlotID] {
        guard let highest = bindings.keys.max() else { return [] }
        return (0..<highest.rawValue).map(SlotID.init).filter { bindings[$0] == nil }
    }
}
