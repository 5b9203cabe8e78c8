/// What a cell shows for its item while and after it loads.
public enum CellState: Sendable, Hashable {
    /// Nothing yet (not bound, or bound and waiting).
    case placeholder
    /// Bytes arriving; `expected` is nil when the size is unknown (chunked responses).
    case progress(received: Int64, expected: Int64?)
    /// A progressive render is on screen; more is coming.
    case partial
    /// The final image is on screen.
    case final
    /// The load failed; `message` is short and sanitized (`404 Not Found`, `timed out`).
    case failed(String)

    /// Creates a failure state, sanitizing and shortening the message (at most 60 columns).
    public static func failure(_ message: some StringProtocol) -> CellState {
        .failed(TerminalText.fit(TerminalText.sanitize(message), width: 60))
    }

    /// Whether no further update is expected (final image or failure).
    public var isSettled: Bool {
        switch self {
        case .final, .failed: return true
        default: return false
        }
    }

    /// The fraction loaded (0…1) when known.
    public var fraction: Double? {
        guard case .progress(let received, let expected) = self, let expected, expected > 0 else { return nil }
        return min(1, max(0, Double(received) / Double(expected)))
    }
}
