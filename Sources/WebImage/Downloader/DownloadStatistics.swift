import Locking

/// Running counters of one downloader, for `--stats` and the status bar. Thread-safe.
public final class DownloadStatistics: Sendable {
    /// A snapshot of the counters.
    public struct Snapshot: Sendable, Hashable {
        /// Handlers added (every `downloadImage` call that got a token).
        public var requests = 0
        /// Handlers that joined a transfer already queued or running for their URL.
        public var coalesced = 0
        /// Transfers created (at most one per URL at a time).
        public var transfers = 0
        /// Handlers cancelled through their token.
        public var cancelled = 0
        /// Body bytes received over the network (all transfers).
        public var bytesReceived: Int64 = 0
        /// Transfers tried again after a transient failure (reset, 502, 503, 504).
        public var retries = 0
    }

    private let counters = Locked(Snapshot())

    /// Creates zeroed counters.
    public init() {}

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func noteRequest(coalesced: Bool) {
        counters.withLock { c in
            c.requests += 1
            if coalesced { c.coalesced += 1 } else { c.transfers += 1 }
        }
    }

    func noteCancelled() { counters.withLock { $0.cancelled += 1 } }

    func noteRetry() { counters.withLock { $0.retries += 1 } }

    func noteBytes(_ count: Int) { counters.withLock { $0.bytesReceived += Int64(count) } }
}
