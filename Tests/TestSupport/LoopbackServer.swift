import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1 (FlyingFox, port chosen by the kernel) for tests and the demo.
/// Routes map exact paths (or directory prefixes) to `StubResponse`s; every request is logged with
/// its headers, status, bytes sent and whether the client went away before the body ended.
///
/// ```swift
/// let server = try await LoopbackServer.start()
/// server.route("/a.jpg", .ok(jpeg, contentType: "image/jpeg"))
/// // … fetch server.url("/a.jpg") …
/// #expect(server.requests(to: "/a.jpg").count == 1)
/// await server.stop()
/// ```
public final class LoopbackServer: Sendable {
    /// A computed route: gets the request, returns the stub to answer with.
    public typealias Responder = @Sendable (RecordedRequest) -> StubResponse

    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let log: RequestLog
    private let routes: RouteTable
    /// The port the server listens on.
    public let port: UInt16

    private init(server: HTTPServer, task: Task<Void, any Error>, log: RequestLog,
                 routes: RouteTable, port: UInt16) {
        self.server = server
        self.task = task
        self.log = log
        self.routes = routes
        self.port = port
    }

    /// Starts a server on 127.0.0.1 and an ephemeral port; returns once it listens.
    public static func start() async throws -> LoopbackServer {
        let log = RequestLog()
        let routes = RouteTable()
        let responder = StubResponder(log: log)
        let handler = ClosureHTTPHandler { request in
            try await Self.handle(request, log: log, routes: routes, responder: responder)
        }
        // A long handler timeout so that first-byte delays of 30 s can be tested; FlyingFox's logger
        // is off so nothing reaches the terminal. The poll-based socket pool, not the default epoll
        // one: epoll waits forever on a GCD worker, and Linux GCD has only ~one worker per core, so
        // a few servers alive at once (parallel tests) would starve each other and hang.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 120,
                                pool: .poll(interval: .seconds(0.005)), logger: .disabled, handler: handler)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw LoopbackServerError.noAddress
        }
        return LoopbackServer(server: server, task: task, log: log, routes: routes, port: port)
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }

    /// `http://127.0.0.1:PORT` + `path` (path includes the leading "/", and may carry a query).
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid")
    }

    /// Answers `path` with a fixed response.
    public func route(_ path: String, _ response: StubResponse) {
        routes.set(path, .exact({ _ in response }))
    }

    /// Answers `path` with a response computed per request.
    public func route(_ path: String, _ responder: @escaping Responder) {
        routes.set(path, .exact(responder))
    }

    /// Serves the files of `directory` under `prefix` ("/files" → `/files/a.jpg`), with `ETag` and
    /// `Last-Modified` validators (so conditional requests get 304) and byte ranges.
    public func serveDirectory(_ directory: URL, under prefix: String) {
        let key = prefix.hasSuffix("/") ? prefix : prefix + "/"
        routes.set(key, .directory(directory))
    }

    /// Every request so far, in arrival order.
    public var requests: [RecordedRequest] { log.snapshot }

    /// The requests for one path.
    public func requests(to path: String) -> [RecordedRequest] { log.snapshot.filter { $0.path == path } }

    /// Forgets the logged requests.
    public func resetLog() { log.reset() }

    /// Waits until `predicate` holds for the log, polling; returns false on timeout.
    public func waitUntil(
        timeout: Duration = .seconds(5), _ predicate: @Sendable ([RecordedRequest]) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(log.snapshot) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(log.snapshot)
    }

    private static func handle(
        _ request: HTTPRequest, log: RequestLog, routes: RouteTable, responder: StubResponder
    ) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let key = name.rawValue.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        let query = request.query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
        let id = log.append(method: request.method.rawValue, path: request.path, query: query, headers: headers)
        guard let recorded = log.snapshot.last(where: { $0.id == id }) else {
            return HTTPResponse(statusCode: .internalServerError)
        }
        let stub = routes.responder(for: request.path)(recorded)
        if let delay = stub.firstByteDelay { try await Task.sleep(for: delay) }
        return responder.respond(to: recorded, with: stub)
    }
}

/// Errors starting the loopback server.
public enum LoopbackServerError: Error {
    /// The server did not report an IPv4 address.
    case noAddress
}

/// Path → responder table; thread-safe.
final class RouteTable: Sendable {
    enum Route: Sendable {
        case exact(LoopbackServer.Responder)
        case directory(URL)
    }

    private let table = Mutex<[String: Route]>([:])

    func set(_ path: String, _ route: Route) { table.withLock { $0[path] = route } }

    /// The exact route for `path`, else the longest directory prefix, else 404.
    func responder(for path: String) -> LoopbackServer.Responder {
        let routes = table.withLock { $0 }
        if case .exact(let responder)? = routes[path] { return responder }
        let prefixes = routes.keys.filter { path.hasPrefix($0) }.sorted { $0.count > $1.count }
        for prefix in prefixes {
            if case .directory(let directory)? = routes[prefix] {
                let name = String(path.dropFirst(prefix.count))
                return { _ in FileStub.make(directory: directory, name: name) }
            }
        }
        return { _ in .status(404, body: "no route for \(path)") }
    }
}
