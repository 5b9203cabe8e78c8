import Foundation

/// The final HTTP response head of a download (after redirects).
///
/// Header names are lowercased; values are untrusted text with control characters removed.
public struct DownloadResponse: Sendable, Equatable {
    /// The HTTP status code (e.g. 200, 206, 304).
    public var statusCode: Int
    /// The reason phrase ("OK"), sanitized; empty for HTTP/2.
    public var reason: String
    /// Response headers, lowercased names; repeated headers joined with ", ".
    public var headers: [String: String]
    /// The URL the body came from (differs from the request URL after a redirect).
    public var url: URL

    /// Creates a response head.
    public init(statusCode: Int, reason: String = "", headers: [String: String] = [:], url: URL) {
        self.statusCode = statusCode
        self.reason = reason
        self.headers = headers
        self.url = url
    }

    /// The value of one header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `ETag` and `Last-Modified`, for revalidation.
    public var validators: HTTPValidators {
        HTTPValidators(etag: headers["etag"], lastModified: headers["last-modified"])
    }

    /// The announced body length (`Content-Length`), if any.
    public var expectedContentLength: Int64? { headers["content-length"].flatMap { Int64($0) } }
}
