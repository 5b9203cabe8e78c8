/// Milliseconds from reading each key to presenting the frame that shows it (`--stats`'
/// key-to-frame): a key starts the clock unless an earlier one is still waiting, and the first
/// frame after which nothing is owed stops it (at once when the key changed nothing).
public struct KeyLatencyMeter: Sendable {
    /// The latencies measured, in milliseconds.
    public private(set) var latencies: [Double] = []
    /// When the oldest key not yet shown by a frame was read.
    private(set) var waitingSince: Double?

    /// Creates an empty meter.
    public init() {}

    /// Whether a key waits for its frame.
    var isWaiting: Bool { waitingSince != nil }

    /// A key was read at `now`.
    mutating func keyRead(at now: Double) {
        if waitingSince == nil { waitingSince = now }
    }

    /// Nothing is owed any more at `now`: the waiting key's frame is out.
    mutating func shown(at now: Double) {
        guard let since = waitingSince else { return }
        latencies.append((now - since) * 1000)
        waitingSince = nil
    }
}
