import Foundation
import Locking

extension ImageDownloader {
    /// Downloads and decodes `url`; returns the final result. Throws `DownloadError` (including
    /// `.cancelled` when the calling task is cancelled, which also drops this handler).
    public func image(
        for url: URL, options: ImageDownloaderOptions = [], context: DownloadContext = DownloadContext()
    ) async throws -> DownloadResult {
        let box = AsyncDownloadBox(url: url)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DownloadResult, any Error>) in
                guard box.install(continuation) else { return }
                let token = downloadImage(with: url, options: options, context: context) { result in
                    if case .success(let value) = result, !value.isFinished { return }
                    box.resume(with: result)
                }
                box.attach(token)
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Joins a continuation, a token and task cancellation; resumes exactly once.
private final class AsyncDownloadBox: Sendable {
    private struct State {
        var continuation: CheckedContinuation<DownloadResult, any Error>?
        var token: DownloadToken?
        var cancelled = false
        var done = false
    }

    private let url: URL
    private let state = Locked(State())

    init(url: URL) { self.url = url }

    /// False (after resuming with `.cancelled`) if the task was already cancelled.
    func install(_ continuation: CheckedContinuation<DownloadResult, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if state.cancelled { state.done = true; return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: DownloadError.cancelled(url: url)) }
        return !cancelled
    }

    func attach(_ token: DownloadToken?) {
        let cancelNow = state.withLock { state -> Bool in
            state.token = token
            return state.cancelled
        }
        if cancelNow { token?.cancel() }
    }

    func resume(with result: Result<DownloadResult, DownloadError>) {
        let continuation = state.withLock { state -> CheckedContinuation<DownloadResult, any Error>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    func cancel() {
        let (token, continuation) = state.withLock { state -> (DownloadToken?, CheckedContinuation<DownloadResult, any Error>?) in
            state.cancelled = true
            guard !state.done else { return (nil, nil) }
            let continuation = state.continuation
            if continuation != nil { state.done = true; state.continuation = nil }
            return (state.token, continuation)
        }
        token?.cancel()
        continuation?.resume(throwing: DownloadError.cancelled(url: url))
    }
}
