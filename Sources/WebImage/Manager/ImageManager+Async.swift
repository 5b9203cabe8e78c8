import Foundation
import ImageCodecs

extension ImageManager {
    /// Loads `request` and returns its final image: partial images are skipped, and a cached image
    /// under revalidation (`.revalidating`) is what returns when the revalidation keeps it
    /// (`.keptCached`: a 304, or a failure to ask), else the new image. Cancelling the task cancels
    /// the load and throws `CancellationError`; a failed load throws its `ImageLoadError`.
    public func image(for request: ImageRequest) async throws -> ImageLoadSuccess {
        var request = request
        request.delivery.remove(.progressiveLoad)  // partial images would be skipped anyway
        return try await ResumeOnce<ImageLoadSuccess>().run { finish in
            loadImage(with: request) { event in
                switch event {
                case .progress, .preview, .revalidating: return
                case .keptCached(let cached, _): finish(.success(cached))
                case .finished(let result): finish(result.mapError { $0 })
                }
            }
        }
    }

    /// Loads `url` with the default request (see `image(for:)` with a request).
    public func image(for url: URL?) async throws -> ImageLoadSuccess {
        try await image(for: ImageRequest(url: url))
    }
}
