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

    /// Where an early image is made once its transfer stopped (`stopIfSufficient`: a JPEG XL's DC,
    /// flushed at full size and scaled, 0.2 s for 12 MP): another of libdispatch's pools (each QoS
    /// has its own, about one thread per core), so the lanes' steps that watch for their own stop
    /// get a thread meanwhile (the kernel shares the cores) instead of queueing behind it.
    static let imaging = DispatchQueue.global(qos: .utility)
}
