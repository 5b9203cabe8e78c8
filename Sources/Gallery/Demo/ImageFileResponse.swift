import FlyingFox
import Foundation
import WebImage

/// The response that serves one image file: `ETag` and `Last-Modified` validators (a matching
/// `If-None-Match` gets 304), `Content-Type` from the extension, HEAD, single byte ranges (`Range`,
/// with `If-Range`: 206), and a `ThrottledBody` with a Content-Length. Shared by the demo server and `sdgallery-bench serve`.
public enum ImageFileResponse {
    /// The response to `request` (GET or HEAD) for `file`, or 404 when it cannot be read. The body
    /// goes at `bytesPerSecond` (0: unthrottled); `cutAfter` and `observer` are `ThrottledBody`'s.
    public static func make(for request: HTTPRequest, file: URL, bytesPerSecond: Int,
                            cutAfter: Int? = nil, observer: (any ThrottledBodyObserver)? = nil) -> HTTPResponse {
        guard let data = try? Data(contentsOf: file) else { return HTTPResponse(statusCode: .notFound) }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        let etag = "\"\(data.count)-\(Int(modified.timeIntervalSince1970))\""
        var headers: HTTPHeaders = [
            HTTPHeader("ETag"): etag,
            HTTPHeader("Last-Modified"): HTTPDate.format(modified),
            HTTPHeader("Cache-Control"): "no-cache",
        ]
        if request.headers[HTTPHeader("If-None-Match")] == etag {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        headers[HTTPHeader("Content-Type")] = HTTPDate.mediaType(ofFileNamed: file.lastPathComponent)
        if request.method == .HEAD {
            headers[HTTPHeader("Content-Length")] = "\(data.count)"
            return HTTPResponse(statusCode: .ok, headers: headers)
        }
        headers[HTTPHeader("Accept-Ranges")] = "bytes"
        var status = HTTPStatusCode.ok
        var bytes = data
        if let range = request.headers[HTTPHeader("Range")], ifRangeHolds(request, etag: etag),
           let slice = HTTPByteRange.parse(range, count: data.count) {
            status = .partialContent
            bytes = data.subdata(in: slice)
            headers[HTTPHeader("Content-Range")] = "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(data.count)"
        }
        let body = ThrottledBody(data: bytes, bytesPerSecond: bytesPerSecond, cutAfter: cutAfter, observer: observer)
        return HTTPResponse(statusCode: status, headers: headers,
                            body: HTTPBodySequence(from: body, count: bytes.count, suggestedBufferSize: body.suggestedBufferSize))
    }

    /// RFC 9110 §13.1.5: a Range is honoured only while `If-Range` (when sent) names the current ETag.
    static func ifRangeHolds(_ request: HTTPRequest, etag: String) -> Bool {
        guard let condition = request.headers[HTTPHeader("If-Range")] else { return true }
        return condition == etag
    }
}
