import Foundation
import Locking

/// One handler's ticket (SDWebImage's `SDWebImageDownloadToken`): cancel it to drop that handler
/// only; the transfer stops when its last handler goes. Set `priority` to move it in the queue.
///
/// ```swift
/// let token = downloader.downloadImage(with: url) { result in … }
/// token?.priority = .veryHigh   // the user scrolled to it
/// token?.cancel()               // the user scrolled away
/// ```
package final class DownloadToken: Cancellable {
    /// The URL downloaded.
    package let url: URL
    /// The handler this token stands for.
    package let handlerID: UInt64
    /// The operation serving the handler.
    package let operation: any DownloadOperation
    private let downloader: ImageDownloader
    private let state: Locked<(priority: DownloadPriority, cancelled: Bool)>

    init(url: URL, handlerID: UInt64, operation: any DownloadOperation, downloader: ImageDownloader, priority: DownloadPriority) {
        self.url = url
        self.handlerID = handlerID
        self.operation = operation
        self.downloader = downloader
        self.state = Locked((priority, false))
    }

    /// This handler's priority; setting it re-prioritises the operation live.
    package var priority: DownloadPriority {
        get { state.withLock { $0.priority } }
        set {
            let changed = state.withLock { state -> Bool in
                guard !state.cancelled, state.priority != newValue else { return false }
                state.priority = newValue
                return true
            }
            if changed { downloader.updatePriority(of: self, to: newValue) }
        }
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Removes this handler; its callbacks are never called after this returns.
    package func cancel() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        if first {
            downloader.statistics.noteCancelled()
            operation.removeHandler(id: handlerID)
        }
    }
}
