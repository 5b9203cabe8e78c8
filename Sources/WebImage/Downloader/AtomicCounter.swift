import Synchronization

/// A thread-safe, monotonically increasing counter (handler ids, round robin).
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)
    /// Returns the next value (1, 2, 3, …).
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
}
