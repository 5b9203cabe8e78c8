import FlyingFox
import FlyingSocks
import Foundation

/// An HTTP server on 127.0.0.1 and a free port, running a handler until stopped: the demo server's
/// listener, and the benchmarks' (`sdgallery-bench serve`).
///
/// ```swift
/// let server = try await LocalHTTPServer.start { request in HTTPResponse(statusCode: .ok) }
/// print(server.port)
/// await server.stop()
/// ```
public final class LocalHTTPServer: Sendable {
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port the server listens on.
    public let port: UInt16

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// Starts serving `handler` on 127.0.0.1 and a free port; returns once it listens. `timeout` is
    /// the idle time after which the server closes a connection.
    public static func start(timeout: TimeInterval = 60,
                             handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> LocalHTTPServer {
        // The poll-based socket pool: epoll would block a GCD worker for good (see TestSupport).
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: timeout,
                                pool: .poll(interval: .seconds(0.005)), logger: .disabled, handler: ClosureHTTPHandler(handler))
        let task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw DemoServerError.noAddress
        }
        return LocalHTTPServer(server: server, task: task, port: port)
    }

    /// Stops listening and closes open connections.
    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
    }
}
