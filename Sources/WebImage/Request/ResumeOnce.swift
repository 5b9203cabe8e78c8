import Locking

/// The one bridge from a callback API to `async`: resumes its continuation exactly once, with the
/// first of a result or task cancellation, and cancels the work it was attached to when the task is
/// cancelled (even when the cancellation comes before the work exists). Work that cannot be
/// cancelled (a store, a removal) is awaited with its non-throwing form, `ResumeOnce.wait`.
///
/// ```swift
/// let once = ResumeOnce<ImageLoadSuccess>(cancelled: CancellationError())
/// return try await once.run { finish in
///     manager.loadImage(with: request) { event in if case .finished(let result) = event { finish(result.mapError { $0 }) } }
/// }
/// ```
final class ResumeOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: (any Cancellable)?
        var cancelled = false
        var done = false
    }
    private let state = Locked(State())
    private let cancellationError: any Error

    /// `cancelled` is what the caller throws when its task is cancelled.
    init(cancelled: any Error = CancellationError()) { cancellationError = cancelled }

    /// Starts `start` (which returns the work to cancel, if any) and waits for `finish`.
    func run(_ start: (_ finish: @escaping @Sendable (Result<T, any Error>) -> Void) -> (any Cancellable)?) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard install(continuation) else { return }
                attach(start { [self] result in resume(result) })
            }
        } onCancel: {
            cancel()
        }
    }

    /// False (after throwing the cancellation error) if the task was already cancelled.
    private func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled { state.done = true; return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: cancellationError) }
        return !cancelled
    }

    private func attach(_ work: (any Cancellable)?) {
        let cancelNow = state.withLock { state -> Bool in
            if !state.done { state.work = work }
            return state.cancelled
        }
        if cancelNow { work?.cancel() }
    }

    private func resume(_ result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard !state.done else { return nil }
            state.done = true
            state.work = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    private func cancel() {
        let (work, continuation) = state.withLock { state -> ((any Cancellable)?, CheckedContinuation<T, any Error>?) in
            state.cancelled = true
            guard !state.done else { return (nil, nil) }
            state.done = true
            defer { state.work = nil; state.continuation = nil }
            return (state.work, state.continuation)
        }
        work?.cancel()
        continuation?.resume(throwing: cancellationError)
    }
}

extension ResumeOnce {
    /// The non-throwing form, for work that cannot be cancelled (a cache store, a removal, a sweep):
    /// starts `start` and waits for its `finish`, whatever happens to the task meanwhile; a second
    /// `finish` is ignored.
    ///
    /// ```swift
    /// await ResumeOnce<Void>.wait { finish in cache.clearDisk { finish(()) } }
    /// ```
    static func wait(_ start: (_ finish: @escaping @Sendable (T) -> Void) -> Void) async -> T {
        let resumed = Locked(false)
        return await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            start { value in
                let first = resumed.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: value) }
            }
        }
    }
}
