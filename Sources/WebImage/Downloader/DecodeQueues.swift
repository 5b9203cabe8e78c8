import Dispatch

/// The decode pool. Each operation gets its own serial queue (its partial decodes, final decode
/// and callbacks run in order and off the network thread), and every such queue runs on one shared
/// pool of about one thread per core (libdispatch's non-overcommitting global queue). An operation is
/// never pinned behind another: one expensive decode holds one thread, and the other operations'
/// work runs on the rest (pinning operations round robin to two serial queues made every other
/// image wait behind a slow decode, issue 21).
enum DecodeQueues {
    /// Where every operation's queue runs.
    private static let pool = DispatchQueue.global(qos: .userInitiated)

    /// A serial queue for a new operation.
    static func lane() -> DispatchQueue { DispatchQueue(label: "sdgallery.decode", target: pool) }
}
