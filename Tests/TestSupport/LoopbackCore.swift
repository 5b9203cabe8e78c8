import FlyingFox
import FlyingSocks
import Foundation
import Locking

/// The one FlyingFox server behind every `LoopbackServer` view of this process.
final class LoopbackCore: Sendable {
    let port: UInt16
    let log = RequestLog()
    let routes = RouteTable()
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let views = Locked(0)

    private static let starting = Locked<Task<LoopbackCore, any Error>?>(nil)
    private let shared = Locked(false)

    private init(port: UInt16, server: HTTPServer, task: Task<Void, any Error>) {
        self.port = port
        self.server = server
        self.task = task
    }

    /// Whether this is the process-wide server (never stopped).
    var isShared: Bool { shared.withLock { $0 } }

    /// Stops an isolated server.
    func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }

    /// The shared server, started by the first caller (later callers await the same start).
    static func shared() async throws -> LoopbackCore {
        let start = starting.withLock { current -> Task<LoopbackCore, any Error> in
            if let current { return current }
            let task = Task {
                let core = try await LoopbackCore.make()
                core.shared.withLock { $0 = true }
                return core
            }
            current = task
            return task
        }
        return try await start.value
    }

    func nextViewID() -> Int { views.withLock { $0 += 1; return $0 } }

    /// Starts a server (the shared one, or an isolated one).
    static func make() async throws -> LoopbackCore {
        let holder = CoreHolder()
        let handler = ClosureHTTPHandler { request in
            guard let core = holder.core else { return HTTPResponse(statusCode: .serviceUnavailable) }
            return try await core.handle(request)
        }
        // A long handler timeout so that first-byte delays of 30 s can be tested; FlyingFox's logger
        // is off so nothing reaches the terminal. The poll-based socket pool, not the default epoll
        // one: epoll waits forever on a GCD worker, and Linux GCD has only ~one worker per core.
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 120,
                                pool: .poll(interval: .seconds(0.005)), logger: .disabled, handler: handler)
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw LoopbackServerError.noAddress
        }
        let core = LoopbackCore(port: port, server: server, task: task)
        holder.core = core
        return core
    }

    private func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            let key = name.rawValue.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        let (prefix, path) = Self.split(request.path)
        let query = request.query.map { $0.value.isEmpty ? $0.name : "\($0.name)=\($0.value)" }.joined(separator: "&")
        let id = log.append(prefix: prefix, method: request.method.rawValue, path: path, query: query, headers: headers)
        guard let recorded = log.entry(id) else { return HTTPResponse(statusCode: .internalServerError) }
        var stub = routes.responder(for: request.path)(recorded)
        // Relative redirects stay inside the view that answered them.
        if let location = stub.headers["Location"], location.hasPrefix("/"), !prefix.isEmpty {
            stub.headers["Location"] = prefix + location
        }
        if let delay = stub.firstByteDelay { try await Task.sleep(for: delay) }
        var clientPort: UInt16?
        if case .ip4(_, let port)? = request.remoteAddress { clientPort = port }
        return StubResponder(log: log, ports: clientPort.map { (self.port, $0) }).respond(to: recorded, with: stub)
    }

    /// "/t7/a/b.png" → ("/t7", "/a/b.png"); paths outside any view keep an empty prefix.
    static func split(_ path: String) -> (prefix: String, rest: String) {
        let parts = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].isEmpty, parts[1].hasPrefix("t") else { return ("", path) }
        let remainder = parts[1]
        let segment = remainder.prefix { $0 != "/" }
        guard segment.count > 1, segment.dropFirst().allSatisfy(\.isNumber) else { return ("", path) }
        let rest = remainder.dropFirst(segment.count)
        return ("/" + segment, rest.isEmpty ? "/" : String(rest))
    }
}

/// Lets the handler closure reach the core, which exists only once the server listens.
private final class CoreHolder: @unchecked Sendable {  // written once before any request can arrive
    var core: LoopbackCore?
}

/// Path → responder table; thread-safe.
final class RouteTable: Sendable {
    enum Route: Sendable {
        case exact(LoopbackServer.Responder)
        case directory(URL)
    }

    private let table = Locked<[String: Route]>([:])

    func set(_ path: String, _ route: Route) { table.withLock { $0[path] = route } }

    /// Removes every route of one view.
    func removeAll(prefix: String) {
        table.withLock { table in table = table.filter { !$0.key.hasPrefix(prefix + "/") } }
    }

    /// The exact route for `path`, else the longest directory prefix, else 404.
    func responder(for path: String) -> LoopbackServer.Responder {
        let routes = table.withLock { $0 }
        if case .exact(let responder)? = routes[path] { return responder }
        let prefixes = routes.keys.filter { path.hasPrefix($0) && $0.hasSuffix("/") }.sorted { $0.count > $1.count }
        for prefix in prefixes {
            if case .directory(let directory)? = routes[prefix] {
                let name = String(path.dropFirst(prefix.count))
                return { _ in FileStub.make(directory: directory, name: name) }
            }
        }
        return { _ in .status(404, body: "no route for \(path)") }
    }
}
