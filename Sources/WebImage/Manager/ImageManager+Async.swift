import Foundation
import ImageCodecs
import Locking

extension ImageManager {
    /// Loads `url` and returns the first finished result (partial images are skipped; with
    /// `.refreshCached`, that is the cached copy). Cancelling the task cancels the load and throws
    /// `CancellationError`; a failed load throws its `ImageLoadError`.
    public func image(
        for url: URL?, options: ImageManagerOptions = [], context: ImageLoadContext = ImageLoadContext()
    ) async throws -> ImageLoadResult {
        let box = OperationBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImageLoadResult, any Error>) in
                let once = Locked<CheckedContinuation<ImageLoadResult, any Error>?>(continuation)
                let operation = loadImage(with: url, options: options.subtracting(.progressiveLoad), context: context) { result in
                    guard result.isFinished, let continuation = once.withLock({ c -> CheckedContinuation<ImageLoadResult, any Error>? in
                        defer { c = nil }
                        return c
                    }) else { return }
                    if let error = result.error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: result)
                    }
                }
                box.set(operation) {
                    once.withLock { c -> CheckedContinuation<ImageLoadResult, any Error>? in
                        defer { c = nil }
                        return c
                    }?.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds the operation of an async load so that task cancellation can reach it, even when the
/// cancellation arrives before the operation exists.
private final class OperationBox: Sendable {
    private struct State {
        var operation: CombinedOperation?
        var onCancel: (@Sendable () -> Void)?
        var cancelled = false
    }

    private let state = Locked(State())

    func set(_ operation: CombinedOperation, onCancel: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.operation = operation
            state.onCancel = onCancel
            return state.cancelled
        }
        if cancelled {
            operation.cancel()
            onCancel()
        }
    }

    func cancel() {
        let (operation, onCancel) = state.withLock { state in
            state.cancelled = true
            return (state.operation, state.onCancel)
        }
        operation?.cancel()
        onCancel?()
    }
}
