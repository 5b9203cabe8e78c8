import Foundation
import Locking

/// One `loadImage` call: cancels the cache query and the download together
/// (SDWebImageCombinedOperation). After `cancel()` its completion is never called.
public final class CombinedOperation: Cancellable, Hashable {
    private struct State {
        var cancelled = false
        var finished = false
        /// The cache query and the download handler of the load, while they run.
        var parts: [any Cancellable] = []
    }

    private let state = Locked(State())
    private let onEnd: @Sendable (CombinedOperation) -> Void

    init(onEnd: @escaping @Sendable (CombinedOperation) -> Void) { self.onEnd = onEnd }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Whether the load's terminal event was delivered (or is being delivered).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Cancels the cache query and the download handler; no completion follows.
    public func cancel() {
        let (parts, first) = state.withLock { state -> ([any Cancellable], Bool) in
            guard !state.cancelled, !state.finished else { return ([], false) }
            state.cancelled = true
            defer { state.parts = [] }
            return (state.parts, true)
        }
        for part in parts { part.cancel() }
        if first { onEnd(self) }
    }

    /// Attaches a part of the load (the cache query, the download token); cancels it at once if the
    /// operation is already cancelled. A part attached after the load ended (a query can lead to the
    /// final result before `attach` runs) is not kept: the operation would hold it, and it the
    /// operation, after the load ended.
    func attach(_ part: any Cancellable) {
        let cancelled = state.withLock { state in
            if !state.cancelled && !state.finished { state.parts.append(part) }
            return state.cancelled
        }
        if cancelled { part.cancel() }
    }

    /// Runs `deliver` unless cancelled or finished; a final delivery marks the operation finished (and
    /// ends it), so nothing is delivered after it. Returns whether it delivered.
    @discardableResult
    func deliver(final: Bool, _ deliver: () -> Void) -> Bool {
        let proceed = state.withLock { state -> Bool in
            guard !state.cancelled, !state.finished else { return false }
            if final {
                state.finished = true
                state.parts = []
            }
            return true
        }
        guard proceed else { return false }
        deliver()
        if final { onEnd(self) }
        return true
    }

    /// Identity equality.
    public static func == (lhs: CombinedOperation, rhs: CombinedOperation) -> Bool { lhs === rhs }
    /// Identity hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
