import Foundation

/// The decode pool: a few serial queues (one per core, at least two). Each operation is pinned
/// to one queue, so its partial decodes, final decode and callbacks run in order and off the
/// network thread, and no more than `count` decodes run at once.
enum DecodeQueues {
    static let count = max(2, ProcessInfo.processInfo.activeProcessorCount)
    private static let queues: [DispatchQueue] = (0..<count).map {
        DispatchQueue(label: "sdgallery.decode.\($0)", qos: .userInitiated)
    }
    private static let next = AtomicCounter()

    /// The queue for a new operation (round robin).
    static func lane() -> DispatchQueue { queues[next.increment() % count] }
}
