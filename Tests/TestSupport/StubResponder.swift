import FlyingFox
import Foundation
import WebImage

/// Turns a stub into the HTTP response for one request: Basic auth, conditional requests (304),
/// byte ranges (206), cookies, and the streamed body.
struct StubResponder {
    let log: RequestLog
    /// The connection's ports (server side, client side), for faults that act on the socket.
    var ports: (server: UInt16, client: UInt16)?

    func respond(to request: RecordedRequest, with stub: StubResponse) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in stub.headers { headers[HTTPHeader(name)] = value }
        for cookie in stub.cookies { headers.addValue(cookie, for: .setCookie) }
        if let etag = stub.etag { headers[.eTag] = etag }
        if let lastModified = stub.lastModified { headers[.lastModified] = lastModified }

        if let (user, password) = stub.basicAuth {
            let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            if request.header("Authorization") != expected {
                var denied = HTTPHeaders()
                denied[HTTPHeader("WWW-Authenticate")] = "Basic realm=\"sdgallery-test\""
                denied[.contentType] = "text/plain"
                return finish(request, status: 401, reason: nil, headers: denied, body: Data("unauthorized".utf8), stub: nil)
            }
        }
        if stub.status == 200, isNotModified(request, stub) {
            headers.removeValue(.contentType)
            return finish(request, status: 304, reason: nil, headers: headers, body: Data(), stub: nil)
        }
        if stub.status == 200, stub.supportsRange, let range = request.header("Range"), ifRangeMatches(request, stub) {
            headers[.acceptRanges] = "bytes"
            guard let slice = HTTPByteRange.parse(range, count: stub.body.count) else {
                headers[.contentRange] = "bytes */\(stub.body.count)"
                return finish(request, status: 416, reason: nil, headers: headers, body: Data(), stub: nil)
            }
            headers[.contentRange] = "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(stub.body.count)"
            var partial = stub
            partial.body = stub.body.subdata(in: slice)
            return finish(request, status: 206, reason: nil, headers: headers, body: partial.body, stub: partial)
        }
        return finish(request, status: stub.status, reason: stub.reason, headers: headers, body: stub.body, stub: stub)
    }

    /// RFC 9110 §13.1.5: a Range with an `If-Range` the representation no longer matches is ignored (full 200).
    private func ifRangeMatches(_ request: RecordedRequest, _ stub: StubResponse) -> Bool {
        guard let condition = request.header("If-Range") else { return true }
        return condition == stub.etag || (condition == stub.lastModified && !condition.hasPrefix("\""))
    }

    private func isNotModified(_ request: RecordedRequest, _ stub: StubResponse) -> Bool {
        if let etag = stub.etag, let sent = request.header("If-None-Match") {
            let tags = sent.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return tags.contains("*") || tags.contains(etag) || tags.contains("W/" + etag)
        }
        if let lastModified = stub.lastModified, let since = request.header("If-Modified-Since") {
            return since == lastModified
        }
        return false
    }

    private func finish(
        _ request: RecordedRequest, status: Int, reason: String?, headers: HTTPHeaders, body: Data, stub: StubResponse?
    ) -> HTTPResponse {
        log.update(request.id) { $0.status = status }
        var headers = headers
        let code = HTTPStatusCode(status, phrase: reason ?? Self.standardPhrase(status))
        let stream = StreamedBody(
            data: body, chunkSize: max(1, stub?.chunkSize ?? 4096), bytesPerSecond: stub?.bytesPerSecond,
            fault: stub?.fault, stallLimit: stub?.stallLimit ?? .seconds(30), log: log, requestID: request.id,
            ports: ports
        )
        let sequence: HTTPBodySequence
        if stub?.chunked == true || stub?.fault == .endless {
            sequence = HTTPBodySequence(from: stream, suggestedBufferSize: stream.chunkSize)
        } else {
            if let announced = stub?.announcedLength { headers[.contentLength] = String(announced) }
            sequence = HTTPBodySequence(from: stream, count: body.count, suggestedBufferSize: stream.chunkSize)
        }
        return HTTPResponse(statusCode: code, headers: headers, body: sequence)
    }

    static func standardPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}
