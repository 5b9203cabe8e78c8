import Locking

/// Resumes a continuation exactly once, from a result or from task cancellation, whichever comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var cancelled = false
        var cancelAction: (@Sendable () -> Void)?
    }
    private let state = Locked(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let run = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.cancelAction = action
            return false
        }
        if run { action() }
    }

    func resume(_ result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    func cancel() {
        let (continuation, action) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            state.cancelled = true
            defer { state.continuation = nil; state.cancelAction = nil }
            return (state.continuation, state.cancelAction)
        }
        action?()
        continuation?.resume(throwing: CancellationError())
    }
}
