import Foundation

extension ImageDownloader {
    /// Downloads and decodes `request`; returns the final result. Throws `DownloadError` (including
    /// `.cancelled` when the calling task is cancelled, which also drops this handler).
    package func image(for request: ImageRequest) async throws -> DownloadResult {
        try await ResumeOnce<DownloadResult>(cancelled: DownloadError.cancelled(url: request.url ?? URL(fileURLWithPath: "/"))).run { finish in
            downloadImage(with: request) { result in
                if case .success(let value) = result, !value.isFinished { return }
                finish(result.mapError { $0 as any Error })
            }
        }
    }

    /// Downloads `url` with the default request (see `image(for:)` with a request).
    package func image(for url: URL) async throws -> DownloadResult {
        try await image(for: ImageRequest(url: url))
    }
}
