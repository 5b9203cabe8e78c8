import Locking
import WebImage

/// Turns the image cache's disk errors into one status line: "disk cache off: …" when the directory
/// cannot be used at all, "disk cache degraded: …" when writes fail (disk full, directory made
/// read-only). Images keep coming from memory and the network either way. The line is posted to the
/// frame loop once per change, not once per failed write.
public final class DiskCacheMonitor: Sendable {
    private struct State {
        var note: String?
        var inbox: UIInbox<GalleryEvent>?
        var failedWrites = 0
    }

    private let state = Locked(State())

    /// Creates a monitor with nothing to report.
    public init() {}

    /// The status line, if the disk cache is off or degraded.
    public var note: String? { state.withLock { $0.note } }

    /// Writes that failed so far (for `--stats`).
    public var failedWrites: Int { state.withLock { $0.failedWrites } }

    /// Sends the line (now, and on every change) to `inbox`.
    public func attach(_ inbox: UIInbox<GalleryEvent>) {
        let note = state.withLock { state in
            state.inbox = inbox
            return state.note
        }
        if let note { inbox.post(.status { $0.diskNote = note }) }
    }

    /// Records a cache event (the cache's `onEvent`; any thread).
    public func record(_ event: CacheEvent) {
        guard case .error(let error) = event, let line = Self.line(for: error) else { return }
        let changed: UIInbox<GalleryEvent>? = state.withLock { state in
            if case .io = error { state.failedWrites += 1 }
            // "off" is final: a later write error does not turn it into "degraded".
            guard state.note != line, state.note?.hasPrefix("disk cache off") != true else { return nil }
            state.note = line
            return state.inbox
        }
        changed?.post(.status { $0.diskNote = line })
    }

    /// The status line for `error`; nil for errors that cost one entry only (a corrupt file is removed
    /// and fetched again; a cached file that does not decode likewise).
    static func line(for error: CacheError) -> String? {
        switch error {
        case .directoryUnavailable(_, let reason): return "disk cache off: \(reason)"
        case .io(let operation, _, let reason): return "disk cache degraded: \(operation) failed (\(reason))"
        case .corruptEntry, .decodeFailed: return nil
        }
    }
}
