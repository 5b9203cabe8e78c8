import Locking

/// A cancellable cache query (SDWebImage's query operation). Once cancelled it never calls back: the
/// callback claims the operation under the same lock `cancel()` takes, so exactly one of them wins.
public final class ImageCacheQueryOperation: Sendable {
    private enum State { case running, cancelled, finished }
    private let state = Locked(State.running)
    private let done: @Sendable (ImageCacheQueryResult) -> Void

    init(done: @escaping @Sendable (ImageCacheQueryResult) -> Void) { self.done = done }

    /// Stops the query; `done` will not be called after this returns (unless it already started).
    public func cancel() {
        state.withLock { if $0 == .running { $0 = .cancelled } }
    }

    /// Whether `cancel()` was called before the query finished.
    public var isCancelled: Bool { state.withLock { $0 == .cancelled } }

    /// Whether the query delivered its result.
    public var isFinished: Bool { state.withLock { $0 == .finished } }

    /// Delivers `result` unless cancelled (first call wins).
    func finish(_ result: ImageCacheQueryResult) {
        let claimed = state.withLock { state -> Bool in
            guard state == .running else { return false }
            state = .finished
            return true
        }
        if claimed { done(result) }
    }
}
