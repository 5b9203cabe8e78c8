import Foundation
import Synchronization

/// One request as the loopback server saw it, updated while its response body streams.
public struct RecordedRequest: Sendable {
    /// Arrival number, from 0.
    public let id: Int
    /// Method ("GET").
    public let method: String
    /// Path without the query ("/a.jpg").
    public let path: String
    /// The query string without "?" ("" when none).
    public let query: String
    /// Request headers; keys lowercased.
    public let headers: [String: String]
    /// When the request arrived.
    public let receivedAt: ContinuousClock.Instant
    /// Status code answered (0 until the handler answered).
    public internal(set) var status: Int = 0
    /// Body bytes handed to the socket so far.
    public internal(set) var bytesSent: Int = 0
    /// The whole body was sent.
    public internal(set) var finished: Bool = false
    /// The body stopped before its end because the client went away (or the server cut it).
    public internal(set) var clientDisconnectedEarly: Bool = false

    /// A request header by name, case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The server's request log; thread-safe.
final class RequestLog: Sendable {
    private struct State {
        var list: [RecordedRequest] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    /// Appends a request and returns its id (ids keep counting across `reset()`).
    func append(method: String, path: String, query: String, headers: [String: String]) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.list.append(RecordedRequest(id: id, method: method, path: path, query: query,
                                              headers: headers, receivedAt: .now))
            return id
        }
    }

    /// Changes one entry in place (no-op when it was reset away).
    func update(_ id: Int, _ change: (inout RecordedRequest) -> Void) {
        state.withLock { state in
            guard let index = state.list.lastIndex(where: { $0.id == id }) else { return }
            change(&state.list[index])
        }
    }

    var snapshot: [RecordedRequest] { state.withLock { $0.list } }

    func reset() { state.withLock { $0.list.removeAll() } }
}
