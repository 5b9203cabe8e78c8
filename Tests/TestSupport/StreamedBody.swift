import FlyingFox
import FlyingSocks
import Foundation

/// A response body as an `AsyncBufferedSequence` that the server pulls chunk by chunk: throttled,
/// stalled, cut short or endless as the stub says, reporting progress to the request log.
struct StreamedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    let data: Data
    let chunkSize: Int
    let bytesPerSecond: Int?
    let fault: StubResponse.Fault?
    let stallLimit: Duration
    let log: RequestLog
    let requestID: Int
    /// The connection's two ports (server side, client side), to find its socket for `.resetAfter`.
    var ports: (server: UInt16, client: UInt16)?

    func makeAsyncIterator() -> Iterator {
        Iterator(body: self, tracker: Tracker(log: log, requestID: requestID))
    }

    /// Records how the body ended when the server drops the iterator: finished, or abandoned early
    /// (the socket write failed because the client went away, or a fault closed it).
    final class Tracker {
        let log: RequestLog
        let requestID: Int
        var finished = false
        let startedAt = ContinuousClock.now

        init(log: RequestLog, requestID: Int) {
            self.log = log
            self.requestID = requestID
        }

        func sent(_ count: Int) { log.update(requestID) { $0.bytesSent += count } }

        deinit {
            let finished = self.finished
            log.update(requestID) { entry in
                entry.finished = finished
                entry.clientDisconnectedEarly = !finished
            }
        }
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        typealias Buffer = [UInt8]
        let body: StreamedBody
        let tracker: Tracker
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            var size = Swift.max(1, Swift.min(count, body.chunkSize))
            switch body.fault {
            case .stallAfter(let limit)? where offset >= limit:
                try await Task.sleep(for: body.stallLimit)
                throw FaultError.stalled
            case .cutAfter(let limit)? where offset >= limit:
                throw FaultError.cut
            case .resetAfter(let limit)? where offset >= limit:
                // FlyingFox closes the socket when the body throws; with SO_LINGER 0 that close is a RST.
                if let ports = body.ports { AbortiveClose.arm(serverPort: ports.server, clientPort: ports.client) }
                throw FaultError.reset
            case .stallAfter(let limit)?, .cutAfter(let limit)?, .resetAfter(let limit)?:
                size = Swift.min(size, limit - offset)
            case .endless?:
                return try await endlessChunk(size)
            case nil:
                break
            }
            guard offset < body.data.count else {
                tracker.finished = true
                return nil
            }
            size = Swift.min(size, body.data.count - offset)
            try await throttle(size)
            let start = body.data.startIndex + offset
            let chunk = [UInt8](body.data[start..<start + size])
            offset += size
            tracker.sent(size)
            return chunk
        }

        private mutating func endlessChunk(_ size: Int) async throws -> [UInt8] {
            try await throttle(size)
            guard ContinuousClock.now - tracker.startedAt < body.stallLimit else { throw FaultError.stalled }
            offset += size
            tracker.sent(size)
            return [UInt8](repeating: 0x41, count: size)
        }

        private func throttle(_ size: Int) async throws {
            guard let rate = body.bytesPerSecond, rate > 0 else { return }
            try await Task.sleep(for: .seconds(Double(size) / Double(rate)))
        }
    }

    enum FaultError: Error { case stalled, cut, reset }
}
