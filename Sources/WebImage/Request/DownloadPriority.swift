/// How soon a queued download should start. An operation runs at the highest priority of its
/// handlers; changing a token's priority moves its queued operation.
public struct DownloadPriority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ordering value (higher starts first).
    public let rawValue: Int

    /// Creates a priority from an ordering value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Prefetching and other background work.
    public static let low = DownloadPriority(rawValue: -1)
    /// The default.
    public static let normal = DownloadPriority(rawValue: 0)
    /// What is on screen.
    public static let high = DownloadPriority(rawValue: 1)
    /// What the user is looking at right now.
    public static let veryHigh = DownloadPriority(rawValue: 2)

    /// Orders by `rawValue`.
    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "normal", "high", … or the raw value.
    public var description: String {
        switch rawValue {
        case -1: return "low"
        case 0: return "normal"
        case 1: return "high"
        case 2: return "veryHigh"
        default: return "priority(\(rawValue))"
        }
    }
}
