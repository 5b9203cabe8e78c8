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

/// A UI executor backed by a serial DispatchQueue (tests, and programs without their own loop).
public final class QueueUIExecutor: UIExecutor {
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    /// Creates an executor on a new serial queue with `label`.
    public init(label: String = "sdgallery.ui") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the caller runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Enqueues `work`.
    public func post(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    /// Runs `work` on the queue and waits for it (tests only; never from the queue itself).
    public func sync<T: Sendable>(_ work: @Sendable () -> T) -> T { queue.sync(execute: work) }
}
