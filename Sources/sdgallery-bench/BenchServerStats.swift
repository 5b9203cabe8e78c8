import Foundation
import Gallery
import Locking

/// The bench server's counters, per path and in total. Thread-safe (one `Mutex`).
final class BenchServerStats: Sendable {
    /// Counters of one path (or of all).
    struct Counts: Codable, Sendable, Equatable {
        var requests = 0
        var bytes = 0
        var failures = 0
        var cuts = 0
        var notModified = 0
        var notFound = 0
    }

    /// Everything, as served at `/__stats`.
    struct Snapshot: Codable, Sendable {
        var total = Counts()
        var active = 0
        var peakActive = 0
        var paths: [String: Counts] = [:]
    }

    /// How a request ended, for the counters.
    enum Outcome { case failed, notFound }

    private let state = Locked(Snapshot())
    /// One line per image request and per body end (`seconds path range` / `seconds path sent N`),
    /// when `SDGALLERY_BENCH_REQUEST_LOG` names a file to write them to at the end.
    let log: Locked<[String]>? = ProcessInfo.processInfo.environment["SDGALLERY_BENCH_REQUEST_LOG"] == nil ? nil : Locked([])
    private let started = Date()

    /// Appends a line to the request log (if on).
    func note(_ line: String) {
        guard let log else { return }
        let stamp = String(format: "%8.3f", Date().timeIntervalSince(started))
        log.withLock { $0.append("\(stamp) \(line)") }
    }

    /// Writes the request log to `SDGALLERY_BENCH_REQUEST_LOG` (if on).
    func writeLog() {
        guard let log, let path = ProcessInfo.processInfo.environment["SDGALLERY_BENCH_REQUEST_LOG"] else { return }
        try? log.withLock { $0.joined(separator: "\n") + "\n" }.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A copy of the counters.
    var snapshot: Snapshot { state.withLock { $0 } }

    /// Zeroes every counter but `active` (bodies still in flight keep counting when they end).
    func reset() {
        state.withLock { state in state = Snapshot(active: state.active, peakActive: state.active) }
    }

    /// The counters as JSON.
    func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(snapshot)) ?? Data("{}".utf8)
    }

    func record(path: String, outcome: Outcome) {
        state.withLock { state in
            state.total.requests += 1
            state.paths[path, default: Counts()].requests += 1
            switch outcome {
            case .failed:
                state.total.failures += 1
                state.paths[path, default: Counts()].failures += 1
            case .notFound:
                state.total.notFound += 1
                state.paths[path, default: Counts()].notFound += 1
            }
        }
    }

    /// A request for `path` that will be answered with a file: counted now; its body reports to the
    /// returned flight, which counts as in flight until it is released.
    func begin(path: String) -> Flight {
        state.withLock { state in
            state.total.requests += 1
            state.paths[path, default: Counts()].requests += 1
            state.active += 1
            state.peakActive = max(state.peakActive, state.active)
        }
        return Flight(stats: self, path: path)
    }

    func add(bytes: Int, path: String) {
        state.withLock { state in
            state.total.bytes += bytes
            state.paths[path, default: Counts()].bytes += bytes
        }
    }

    func settle(path: String, status: Int, cut: Bool) {
        state.withLock { state in
            if status == 304 {
                state.total.notModified += 1
                state.paths[path, default: Counts()].notModified += 1
            } else if status == 404 {
                state.total.notFound += 1
                state.paths[path, default: Counts()].notFound += 1
            } else if cut {
                state.total.cuts += 1
                state.paths[path, default: Counts()].cuts += 1
            }
        }
    }

    func end() {
        state.withLock { $0.active -= 1 }
    }

    /// One response with a body: counts its bytes, and is in flight until the server lets go of the
    /// body (sent, or the client went away). Responses without a body end when `settle` says so.
    final class Flight: ThrottledBodyObserver {
        let stats: BenchServerStats
        let path: String
        private let ended = Locked(false)
        private let bytes = Locked(0)

        init(stats: BenchServerStats, path: String) {
            self.stats = stats
            self.path = path
        }

        func sent(_ count: Int) {
            stats.add(bytes: count, path: path)
            bytes.withLock { $0 += count }
        }

        /// Records the response's status; a response without a body (304, 404, an injected failure)
        /// ends here. A 200 or 206 (a `Range` request) ends when its body is let go of; a HEAD's 200
        /// has none and ends when the server drops the flight.
        func settle(status: Int, cut: Bool) {
            stats.settle(path: path, status: status, cut: cut && status == 200)
            if status != 200 && status != 206 { finish() }
        }

        private func finish() {
            let first = ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
            if first {
                stats.end()
                stats.note("\(path) sent \(bytes.withLock { $0 })")
            }
        }

        deinit { finish() }
    }
}
