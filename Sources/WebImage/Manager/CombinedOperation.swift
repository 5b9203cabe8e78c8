import Foundation
import Locking

/// One `loadImage` call: cancels the cache query and the download together
/// (SDWebImageCombinedOperation). After `cancel()` its completion is never called.
public final class CombinedOperation: Cancellable, Hashable {
    private struct State {
        var cancelled = false
        var finished = false
        var cacheOperation: ImageCacheQueryOperation?
        var downloadToken: DownloadToken?
    }

    private let state = Locked(State())
    private let onEnd: @Sendable (CombinedOperation) -> Void

    init(onEnd: @escaping @Sendable (CombinedOperation) -> Void) { self.onEnd = onEnd }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Whether the load delivered its final result.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The download's token while one runs (its `priority` can be changed live).
    public var downloadToken: DownloadToken? { state.withLock { $0.downloadToken } }

    /// Cancels the cache query and the download handler; no completion follows.
    public func cancel() {
        let (query, token, first) = state.withLock { state -> (ImageCacheQueryOperation?, DownloadToken?, Bool) in
            guard !state.cancelled, !state.finished else { return (nil, nil, false) }
            state.cancelled = true
            defer { state.cacheOperation = nil; state.downloadToken = nil }
            return (state.cacheOperation, state.downloadToken, true)
        }
        query?.cancel()
        token?.cancel()
        if first { onEnd(self) }
    }

    /// Attaches the cache query; cancels it at once if the operation is already cancelled. A
    /// query that already led to the final result (it can finish before `attach` runs) is not
    /// kept: the operation would hold it, and it the operation, after the load ended.
    func attach(_ query: ImageCacheQueryOperation) {
        let cancelled = state.withLock { state in
            if !state.cancelled && !state.finished { state.cacheOperation = query }
            return state.cancelled
        }
        if cancelled { query.cancel() }
    }

    /// Attaches the download token; cancels it at once if the operation is already cancelled
    /// (and keeps no token once the load has ended).
    func attach(_ token: DownloadToken) {
        let cancelled = state.withLock { state in
            if !state.cancelled && !state.finished { state.downloadToken = token }
            return state.cancelled
        }
        if cancelled { token.cancel() }
    }

    /// Runs `deliver` unless cancelled; a final delivery marks the operation finished (and ends it).
    /// Returns whether it delivered.
    @discardableResult
    func deliver(final: Bool, _ deliver: () -> Void) -> Bool {
        let proceed = state.withLock { state -> Bool in
            guard !state.cancelled, !state.finished else { return false }
            if final {
                state.finished = true
                state.cacheOperation = nil
                state.downloadToken = nil
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
