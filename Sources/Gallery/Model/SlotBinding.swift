import ImageCodecs

/// A slot bound to an item at a target pixel size. Staleness is not decided here: the slot's
/// `ImageSlot` (in `ManagerImageSource`) drops every completion of a load it cancelled or replaced.
public struct SlotBinding: Sendable, Hashable {
    /// The slot.
    public var slot: SlotID
    /// The item index.
    public var index: Int
    /// The pixel size the image should be decoded to fit.
    public var target: PixelSize
    /// Whether it plays (the full view) rather than shows a still (`PrefetchRequest.animated`).
    public var animated = false

    /// Creates a binding.
    public init(slot: SlotID, index: Int, target: PixelSize, animated: Bool = false) {
        self.slot = slot
        self.index = index
        self.target = target
        self.animated = animated
    }

    /// The load it stands for.
    public var request: PrefetchRequest { PrefetchRequest(index: index, target: target, animated: animated) }
}
