import FlyingFox
import FlyingSocks
import Foundation

/// The loopback HTTP server of `sdgallery --demo`: serves the demo images of one folder at
/// `http://127.0.0.1:PORT/demo/NAME` with a bandwidth limit per response, `ETag` and
/// `Last-Modified` validators (conditional requests get 304), and nothing else (any other path is
/// 404; names outside the folder's image list cannot be reached). Writes nothing anywhere.
///
/// ```swift
/// let server = try await DemoServer.start(directory: demoFolder, bytesPerSecond: 400_000)
/// let list = server.list          // the gallery's entries, as http URLs
/// await server.stop()
/// ```
public final class DemoServer: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port the server listens on.
    public let port: UInt16
    /// The image file names served, sorted.
    public let names: [String]

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16, names: [String]) {
        self.server = server
        self.task = task
        self.port = port
        self.names = names
    }

    /// Starts serving the images of `directory` on 127.0.0.1 and a free port, each response limited to
    /// `bytesPerSecond`; returns once it listens.
    public static func start(directory: URL, bytesPerSecond: Int) async throws -> DemoServer {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { DemoAssets.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        let allowed = Set(names)
        let rate = max(1024, bytesPerSecond)
        let handler = ClosureHTTPHandler { request in
            Self.respond(to: request, directory: directory, allowed: allowed, rate: rate)
        }
        // The poll-based socket pool: epoll would block a GCD worker for good (see TestSupport).
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60,
                                pool: .poll(interval: .seconds(0.005)), logger: .disabled, handler: handler)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw DemoServerError.noAddress
        }
        return DemoServer(server: server, task: task, port: port, names: names)
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }

    /// `http://127.0.0.1:PORT/demo/NAME`.
    public func url(of name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/demo/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)")
            ?? URL(fileURLWithPath: "/invalid")
    }

    /// Every served image as a list entry.
    public var list: URLList {
        URLList(entries: names.enumerated().map { URLListEntry(line: $0.offset + 1, location: .remote(url(of: $0.element))) })
    }

    static func respond(to request: HTTPRequest, directory: URL, allowed: Set<String>, rate: Int) -> HTTPResponse {
        let prefix = "/demo/"
        guard request.method == .GET || request.method == .HEAD, request.path.hasPrefix(prefix) else {
            return HTTPResponse(statusCode: .notFound)
        }
        let name = String(request.path.dropFirst(prefix.count)).removingPercentEncoding ?? ""
        guard allowed.contains(name) else { return HTTPResponse(statusCode: .notFound) }
        let file = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: file) else { return HTTPResponse(statusCode: .notFound) }
        let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        let etag = "\"\(data.count)-\(Int(modified.timeIntervalSince1970))\""
        var headers: HTTPHeaders = [
            HTTPHeader("ETag"): etag,
            HTTPHeader("Last-Modified"): Self.httpDate(modified),
            HTTPHeader("Cache-Control"): "no-cache",
        ]
        if request.headers[HTTPHeader("If-None-Match")] == etag {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        headers[HTTPHeader("Content-Type")] = Self.contentType(of: name)
        if request.method == .HEAD {
            headers[HTTPHeader("Content-Length")] = "\(data.count)"
            return HTTPResponse(statusCode: .ok, headers: headers)
        }
        let body = ThrottledBody(data: data, bytesPerSecond: rate)
        return HTTPResponse(statusCode: .ok, headers: headers,
                            body: HTTPBodySequence(from: body, count: data.count, suggestedBufferSize: ThrottledBody.chunkSize))
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

/// Why the demo server could not start.
public enum DemoServerError: Error, Sendable {
    /// The server did not report an IPv4 address.
    case noAddress
}
