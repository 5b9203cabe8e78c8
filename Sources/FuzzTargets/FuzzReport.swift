/// What one fuzz input produced: a short account of each step and the invariants it broke.
public struct FuzzReport: Sendable, CustomStringConvertible {
    /// One entry per step ("full: 16×16", "stream 37 chunks: truncated JPEG").
    public var steps: [String] = []
    /// Broken invariants; empty when the input was handled correctly (an image or a clean error).
    public var problems: [String] = []

    /// Creates an empty report.
    public init() {}

    /// Records a step.
    mutating func note(_ step: String) { steps.append(step) }

    /// Records a broken invariant.
    mutating func fail(_ problem: String) { problems.append(problem) }

    /// Records a broken invariant unless `condition` holds.
    mutating func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append(problem()) }
    }

    /// "step; step" and then "PROBLEM: …" lines.
    public var description: String {
        ([steps.joined(separator: "; ")] + problems.map { "PROBLEM: \($0)" }).joined(separator: "\n")
    }
}
