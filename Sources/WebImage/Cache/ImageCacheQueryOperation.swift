import Locking

/// A cancellable cache query (SDWebImage's query operation). Once cancelled it never calls back: the
/// callback claims the operation under the same lock `cancel()` takes, so exactly one of them wins.
/// The callback is dropped when the query is cancelled or has delivered, so whatever it captured
/// (the load, which holds the operation that holds this query) is released with it.
package final class ImageCacheQueryOperation: Cancellable {
    private enum State {
        case running(@Sendable (ImageCacheQueryResult) -> Void)
        case cancelled
        case finished
    }
    private let state: Locked<State>

    init(done: @escaping @Sendable (ImageCacheQueryResult) -> Void) { state = Locked(.running(done)) }

    /// Stops the query; `done` will not be called after this returns (unless it already started).
    package func cancel() {
        state.withLock { if case .running = $0 { $0 = .cancelled } }
    }

    /// Whether `cancel()` was called before the query finished.
    package var isCancelled: Bool { state.withLock { if case .cancelled = $0 { true } else { false } } }

    /// Whether the query delivered its result.
    package var isFinished: Bool { state.withLock { if case .finished = $0 { true } else { false } } }

    /// Delivers `result` unless cancelled (first call wins).
    func finish(_ result: ImageCacheQueryResult) {
        let done = state.withLock { state -> (@Sendable (ImageCacheQueryResult) -> Void)? in
            guard case .running(let done) = state else { return nil }
            state = .finished
            return done
        }
        done?(result)
    }
}
