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
}
