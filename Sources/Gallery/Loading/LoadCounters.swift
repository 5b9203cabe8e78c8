import Foundation
import Locking
import WebImage

/// What the gallery counts about its loads, beside the downloader's own statistics: images shown by
/// origin, failures, and when the first image arrived. Thread-safe.
public final class LoadCounters: Sendable {
    /// A snapshot.
    public struct Snapshot: Sendable, Hashable {
        /// Visible loads started.
        public var binds = 0
        /// Final images from the memory cache.
        public var memoryHits = 0
        /// Final images from the disk cache.
        public var diskHits = 0
        /// Final images from the network or local files.
        public var loaded = 0
        /// Failed loads.
        public var failures = 0
        /// Seconds from start to the first final image.
        public var timeToFirstImage: Double?
    }

    private let started = ContinuousClock.now
    private let counters = Locked(Snapshot())

    /// Creates zeroed counters; the first-image clock starts now.
    public init() {}

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func noteBind() { counters.withLock { $0.binds += 1 } }

    func noteFailure() { counters.withLock { $0.failures += 1 } }

    func noteImage(cacheType: ImageCacheType) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        counters.withLock { c in
            switch cacheType {
            case .memory: c.memoryHits += 1
            case .disk: c.diskHits += 1
            case .none: c.loaded += 1
            }
            if c.timeToFirstImage == nil { c.timeToFirstImage = seconds }
        }
    }
}
