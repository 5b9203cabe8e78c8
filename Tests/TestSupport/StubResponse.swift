import Foundation

/// What the loopback server answers for one route: status, headers, body, and how the body is
/// delivered (throttled, delayed, chunked, stalled, cut short, endless).
///
/// ```swift
/// var r = StubResponse.ok(jpeg, contentType: "image/jpeg")
/// r.bytesPerSecond = 200_000
/// r.etag = "\"v1\""
/// server.route("/a.jpg", r)
/// ```
public struct StubResponse: Sendable {
    /// How the body misbehaves, if it does.
    public enum Fault: Sendable, Equatable {
        /// Send this many body bytes, then stop sending (the connection stays open) until the
        /// client goes away or `stallLimit` passes.
        case stallAfter(bytes: Int)
        /// Send this many body bytes, then close the connection (body shorter than announced).
        case cutAfter(bytes: Int)
        /// A chunked body that never ends (bounded by `stallLimit` so tests cannot run forever).
        case endless
        /// Send this many body bytes, then abort the connection with a TCP reset (RST): the socket
        /// gets `SO_LINGER` 0 and is closed, so the client reads ECONNRESET, not an end of file.
        case resetAfter(bytes: Int)
    }

    /// Status code.
    public var status: Int
    /// Reason phrase; nil for the standard one.
    public var reason: String?
    /// Extra response headers.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// `ETag` to send; a matching `If-None-Match` (or `*`) gets 304.
    public var etag: String?
    /// `Last-Modified` to send; an equal `If-Modified-Since` gets 304 (when no ETag decides).
    public var lastModified: String?
    /// Throttle: body bytes per second (nil: as fast as possible).
    public var bytesPerSecond: Int?
    /// Size of each body write.
    public var chunkSize: Int
    /// Delay before the status line and headers go out.
    public var firstByteDelay: Duration?
    /// Send without Content-Length, with chunked transfer encoding.
    public var chunked: Bool
    /// Announce this Content-Length whatever the body is (e.g. 10 GiB).
    public var announcedLength: Int?
    /// How the body misbehaves.
    public var fault: Fault?
    /// Longest time a stalled or endless body keeps the connection busy.
    public var stallLimit: Duration
    /// Require HTTP Basic credentials; wrong or missing ones get 401 with `WWW-Authenticate`.
    public var basicAuth: (user: String, password: String)?
    /// `Set-Cookie` header values.
    public var cookies: [String]
    /// Answer `Range: bytes=…` with 206 (only for 200 responses).
    public var supportsRange: Bool

    /// Creates a response.
    public init(status: Int = 200, reason: String? = nil, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.chunkSize = 4096
        self.chunked = false
        self.stallLimit = .seconds(30)
        self.cookies = []
        self.supportsRange = true
    }

    /// 200 with a body and its Content-Type.
    public static func ok(_ body: Data, contentType: String = "application/octet-stream") -> StubResponse {
        StubResponse(status: 200, headers: ["Content-Type": contentType], body: body)
    }

    /// Any status with a plain-text body.
    public static func status(_ code: Int, body: String = "", reason: String? = nil) -> StubResponse {
        StubResponse(status: code, reason: reason, headers: ["Content-Type": "text/plain"], body: Data(body.utf8))
    }

    /// 200 with `body` gzip-compressed (`TestGzip.stored`) and `Content-Encoding: gzip`.
    public static func gzipped(_ body: Data, contentType: String = "application/octet-stream") -> StubResponse {
        StubResponse(status: 200, headers: ["Content-Type": contentType, "Content-Encoding": "gzip"],
                     body: TestGzip.stored(body))
    }

    /// A redirect to `location` (a path on this server, an absolute URL, or another scheme).
    public static func redirect(to location: String, status: Int = 302) -> StubResponse {
        StubResponse(status: status, headers: ["Location": location])
    }
}
