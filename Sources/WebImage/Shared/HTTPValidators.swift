/// HTTP cache validators of a stored response, used to revalidate it (`If-None-Match`,
/// `If-Modified-Since` → 304). Shared by the downloader (which reads them from responses) and the
/// cache (which stores them next to the bytes).
public struct HTTPValidators: Sendable, Hashable, Codable {
    /// The `ETag` response header, verbatim.
    public var etag: String?
    /// The `Last-Modified` response header, verbatim.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is anything to revalidate with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The conditional request headers these validators produce.
    public var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }
}
