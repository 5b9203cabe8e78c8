import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1 (FlyingFox) for tests. Routes map exact paths (or directory
/// prefixes) to `StubResponse`s; every request is logged with its headers, status, bytes sent and
/// whether the client went away before the body ended.
///
/// Every `start()` returns a *view* of one server shared by the whole test process: its own path
/// prefix, routes and request log, so tests stay isolated. One server, not one per test, because each
/// FlyingFox server keeps a GCD worker polling its sockets and this machine has about one worker per
/// core: dozens of parallel servers would starve each other.
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

    private let core: LoopbackCore
    /// This view's path prefix ("/t7"); every path of its API is relative to it.
    let prefix: String

    private init(core: LoopbackCore, prefix: String) {
        self.core = core
        self.prefix = prefix
    }

    /// A new view of the shared server (started on first use, 127.0.0.1 and an ephemeral port).
    public static func start() async throws -> LoopbackServer {
        let core = try await LoopbackCore.shared()
        return LoopbackServer(core: core, prefix: "/t\(core.nextViewID())")
    }

    /// A view of a server of its own, on a port no other test uses: for the few tests that inspect
    /// the process's sockets to that port. Use sparingly (each server keeps a GCD worker polling).
    public static func startIsolated() async throws -> LoopbackServer {
        LoopbackServer(core: try await LoopbackCore.make(), prefix: "/t1")
    }

    /// Ends this view: its routes answer 404 from now on (a shared server keeps running; an isolated
    /// one stops).
    public func stop() async {
        core.routes.removeAll(prefix: prefix)
        if !core.isShared { await core.stop() }
    }

    /// The port the server listens on.
    public var port: UInt16 { core.port }

    /// `http://127.0.0.1:PORT` + this view's prefix + `path` (leading "/", may carry a query).
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(prefix)\(path)") ?? URL(fileURLWithPath: "/invalid")
    }

    /// Answers `path` with a fixed response.
    public func route(_ path: String, _ response: StubResponse) {
        core.routes.set(prefix + path, .exact({ _ in response }))
    }

    /// Answers `path` with a response computed per request.
    public func route(_ path: String, _ responder: @escaping Responder) {
        core.routes.set(prefix + path, .exact(responder))
    }

    /// Serves the files of `directory` under `path` ("/files" → `/files/a.jpg`), with `ETag` and
    /// `Last-Modified` validators (so conditional requests get 304) and byte ranges.
    public func serveDirectory(_ directory: URL, under path: String) {
        core.routes.set(prefix + (path.hasSuffix("/") ? path : path + "/"), .directory(directory))
    }

    /// Every request of this view so far, in arrival order (paths relative to the view).
    public var requests: [RecordedRequest] { core.log.snapshot(prefix: prefix) }

    /// The requests for one path.
    public func requests(to path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

    /// Forgets this view's logged requests.
    public func resetLog() { core.log.reset(prefix: prefix) }

    /// Waits until `predicate` holds for the log, polling; returns false on timeout.
    public func waitUntil(
        timeout: Duration = .seconds(15), _ predicate: @Sendable ([RecordedRequest]) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(requests) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(requests)
    }
}

/// Errors starting the loopback server.
public enum LoopbackServerError: Error {
    /// The server did not report an IPv4 address.
    case noAddress
}
