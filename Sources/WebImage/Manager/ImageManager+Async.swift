import Foundation
import ImageCodecs
import Locking

extension ImageManager {
    /// Loads `request` and returns its last finished result: partial images are skipped, and a cached
    /// copy under revalidation (`isRevalidating`) is followed by the revalidation — a 304 or a failed
    /// revalidation returns the cached copy (with `isRevalidating` still set), a new body the new image.
    /// Cancelling the task cancels the load and throws `CancellationError`; a failed load throws its
    /// `ImageLoadError`.
    public func image(for request: ImageRequest) async throws -> ImageLoadResult {
        var request = request
        request.options.remove(.progressiveLoad)  // partial images would be skipped anyway
        let cached = Locked<ImageLoadResult?>(nil)
        return try await ResumeOnce<ImageLoadResult>().run { finish in
            loadImage(with: request) { result in
                guard result.isFinished else { return }
                if result.isRevalidating {
                    cached.withLock { $0 = result }
                    return
                }
                if let copy = cached.withLock({ $0 }), result.isNotModified || result.error != nil {
                    return finish(.success(copy))
                }
                if let error = result.error { return finish(.failure(error)) }
                finish(.success(result))
            }
        }
    }

    /// Loads `url` with no options (see `image(for:)` with a request).
    public func image(for url: URL?) async throws -> ImageLoadResult {
        try await image(for: ImageRequest(url: url))
    }
}
