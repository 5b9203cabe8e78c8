import Foundation

/// Where an `ImageSlot` delivers assignments and completions: the UI thread's executor.
/// `run` executes inline when already on it (SDWebImage's `dispatch_main_async_safe`), otherwise posts.
public protocol UIExecutor: Sendable {
    /// Whether the calling thread is the UI thread.
    var isCurrent: Bool { get }
    /// Runs `work` on the UI thread later (never inline).
    func post(_ work: @escaping @Sendable () -> Void)
}

extension UIExecutor {
    /// Runs `work` inline when on the UI thread, else posts it.
    public func run(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { work() } else { post(work) }
    }
}
