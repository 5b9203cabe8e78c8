import Foundation
@testable import WebImage

/// A UI executor backed by a serial DispatchQueue (the tests: the gallery has its own loop).
final class QueueUIExecutor: UIExecutor {
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    /// Creates an executor on a new serial queue with `label`.
    init(label: String = "sdgallery.ui") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the caller runs on this executor's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Enqueues `work`.
    func post(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

    /// Runs `work` on the queue and waits for it (tests only; never from the queue itself).
    func sync<T: Sendable>(_ work: @Sendable () -> T) -> T { queue.sync(execute: work) }
}
