import Foundation
import Locking

/// Activity of the downloader, for a network activity indicator (SDWebImage's
/// Start / ReceiveResponse / Stop / Finish notifications).
public enum DownloadEvent: Sendable, Equatable {
    /// A transfer started.
    case started(URL)
    /// The final response head arrived.
    case receivedResponse(URL, statusCode: Int)
    /// A transfer stopped (finished, failed or cancelled).
    case stopped(URL)
    /// A transfer finished successfully (posted after `.stopped`).
    case finished(URL)
}

/// Fans events out to observers. Observers are called synchronously on the thread that posts
/// (often the network thread): keep them quick.
public final class DownloadEventCenter: Sendable {
    private let observers = Locked<[Int: @Sendable (DownloadEvent) -> Void]>([:])
    private let ids = AtomicCounter()

    /// Creates an empty center.
    public init() {}

    /// Registers an observer until the returned observation is cancelled.
    public func addObserver(_ observer: @escaping @Sendable (DownloadEvent) -> Void) -> DownloadEventObservation {
        let id = ids.increment()
        observers.withLock { $0[id] = observer }
        return DownloadEventObservation { [weak self] in _ = self?.observers.withLock { $0.removeValue(forKey: id) } }
    }

    /// Delivers `event` to every observer.
    public func post(_ event: DownloadEvent) {
        let current = observers.withLock { Array($0.values) }
        for observer in current { observer(event) }
    }
}

/// Keeps an event observer registered until `cancel()`.
public final class DownloadEventObservation: Cancellable {
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    /// Stops the observer.
    public func cancel() { onCancel() }
}
