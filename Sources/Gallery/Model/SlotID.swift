/// Identifies one reusable on-screen slot (the gallery's equivalent of a reusable table cell). Items
/// that stay visible keep their slot; a slot freed by an item that left the screen is reused.
public struct SlotID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The slot number (small, dense, reused).
    public let rawValue: Int

    /// Creates a slot id.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders by number.
    public static func < (lhs: SlotID, rhs: SlotID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "slot 3".
    public var description: String { "slot \(rawValue)" }
}
