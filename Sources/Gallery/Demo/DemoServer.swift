import FlyingFox
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
    private let server: LocalHTTPServer
    /// The port the server listens on.
    public var port: UInt16 { server.port }
    /// The image file names served, sorted.
    public let names: [String]
    /// The limit of each response in bytes per second (0: unthrottled).
    public let bytesPerSecond: Int

    private init(server: LocalHTTPServer, names: [String], bytesPerSecond: Int) {
        self.server = server
        self.names = names
        self.bytesPerSecond = bytesPerSecond
    }

    /// Starts serving the images of `directory` on 127.0.0.1 and a free port, each response limited to
    /// `bytesPerSecond` (0 or less: unthrottled; a positive rate is at least 1 KB/s); returns once it
    /// listens.
    public static func start(directory: URL, bytesPerSecond: Int) async throws -> DemoServer {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { DemoAssets.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        let allowed = Set(names)
        let rate = bytesPerSecond > 0 ? max(1024, bytesPerSecond) : 0
        let server = try await LocalHTTPServer.start { request in
            Self.respond(to: request, directory: directory, allowed: allowed, rate: rate)
        }
        return DemoServer(server: server, names: names, bytesPerSecond: rate)
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        await server.stop()
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
        return ImageFileResponse.make(for: request, file: directory.appendingPathComponent(name), bytesPerSecond: rate)
    }
}

/// Why the demo server could not start.
public enum DemoServerError: Error, Sendable {
    /// The server did not report an IPv4 address.
    case noAddress
}
