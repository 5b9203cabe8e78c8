import Foundation
import ImageCodecs

/// What a download handler receives: a partial image while bytes arrive (`isFinished == false`,
/// only with `.progressiveLoad`), then the final one (`isFinished == true`).
package struct DownloadResult: Sendable {
    /// The URL that was requested.
    package var url: URL
    /// The decoded image: partial while `isFinished` is false; nil if a partial decode had nothing
    /// to show.
    package var image: Image?
    /// The bytes received so far (all of them when finished).
    package var data: Data
    /// The final response head.
    package var response: DownloadResponse
    /// Whether this is the last call for this handler.
    package var isFinished: Bool
    /// False when the transfer stopped once the image was final at its size
    /// (`.stopWhenSufficient`): `data` is then only the body's start, not for the disk cache.
    package var isWholeBody = true

    /// The HTTP status code of the response.
    package var statusCode: Int { response.statusCode }
    /// `ETag` / `Last-Modified` of the response.
    package var validators: HTTPValidators { response.validators }
    /// All response headers (lowercased names, sanitized values).
    package var headers: [String: String] { response.headers }

    /// Creates a result.
    package init(url: URL, image: Image?, data: Data, response: DownloadResponse, isFinished: Bool) {
        self.url = url
        self.image = image
        self.data = data
        self.response = response
        self.isFinished = isFinished
    }
}

/// Receives bytes-so-far for one handler: (received, expected or -1 if unknown, url).
package typealias DownloadProgressHandler = @Sendable (_ received: Int64, _ expected: Int64, _ url: URL) -> Void

/// Receives partial results (with `.progressiveLoad`) and then exactly one final result or error.
/// Never called after the handler's token was cancelled.
package typealias DownloadCompletionHandler = @Sendable (Result<DownloadResult, DownloadError>) -> Void
