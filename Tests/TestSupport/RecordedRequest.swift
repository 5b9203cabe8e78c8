import Foundation
import Locking

/// One request as the loopback server saw it, updated while its response body streams.
public struct RecordedRequest: Sendable {
    /// Arrival number, from 0.
    public let id: Int
    /// Method ("GET").
    public let method: String
    /// Path without the query ("/a.jpg"), relative to the server view that logged it.
    public internal(set) var path: String
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

/// The shared server's request log, partitioned by view prefix; thread-safe.
final class RequestLog: Sendable {
    private struct State {
        var byPrefix: [String: [RecordedRequest]] = [:]
        var prefixOfID: [Int: String] = [:]
        var nextID = 0
    }
    private let state = Locked(State())

    /// Appends a request of the view `prefix` (path already relative to it) and returns its id
    /// (ids keep counting across `reset`).
    func append(prefix: String, method: String, path: String, query: String, headers: [String: String]) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.prefixOfID[id] = prefix
            state.byPrefix[prefix, default: []].append(
                RecordedRequest(id: id, method: method, path: path, query: query, headers: headers, receivedAt: .now))
            return id
        }
    }

    /// Changes one entry in place (no-op when it was reset away).
    func update(_ id: Int, _ change: (inout RecordedRequest) -> Void) {
        state.withLock { state in
            guard let prefix = state.prefixOfID[id],
                  let index = state.byPrefix[prefix]?.lastIndex(where: { $0.id == id }) else { return }
            change(&state.byPrefix[prefix]![index])
        }
    }

    /// The requests of one view, in arrival order.
    func snapshot(prefix: String) -> [RecordedRequest] { state.withLock { $0.byPrefix[prefix] ?? [] } }

    /// One entry by id.
    func entry(_ id: Int) -> RecordedRequest? {
        state.withLock { state in
            guard let prefix = state.prefixOfID[id] else { return nil }
            return state.byPrefix[prefix]?.last { $0.id == id }
        }
    }

    /// Forgets the requests of one view.
    func reset(prefix: String) { state.withLock { $0.byPrefix[prefix] = nil } }
}
