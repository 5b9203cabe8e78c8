/// Remembers which kitty image ids the terminal already holds, so an image is transmitted once and
/// later repaints send only the placement. A value owned by the thread that writes to the tty.
///
/// ```swift
/// var session = KittySession()
/// writer.append(session.output(for: rendered))    // first time: transmit + place; then place only
/// writer.append(session.scrolledAway(rendered))   // delete the placement, keep the data
/// ```
public struct KittySession: Sendable {
    /// Ids transmitted so far.
    public private(set) var transmitted: Set<UInt32> = []
    /// Whether commands are wrapped for tmux passthrough.
    public var tmuxPassthrough: Bool

    /// Creates an empty session.
    public init(tmuxPassthrough: Bool = false) {
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// The bytes to emit for `rendered`: everything the first time an id is seen, the placement
    /// alone afterwards. Other renderer kinds pass through unchanged.
    public mutating func output(for rendered: RenderedImage) -> [UInt8] {
        guard let id = rendered.kittyImageID, let placement = rendered.placement else { return rendered.bytes }
        if transmitted.contains(id) { return placement }
        transmitted.insert(id)
        return rendered.bytes
    }

    /// Deletes the placement of a slot that scrolled away (data stays for a cheap return).
    public func scrolledAway(_ rendered: RenderedImage) -> [UInt8] {
        guard let id = rendered.kittyImageID else { return [] }
        return KittyRenderer.delete(imageID: id, tmuxPassthrough: tmuxPassthrough)
    }

    /// Frees an image's data in the terminal (evicted from our caches); it will be transmitted again.
    public mutating func evict(imageID id: UInt32) -> [UInt8] {
        transmitted.remove(id)
        return KittyRenderer.delete(imageID: id, freeData: true, tmuxPassthrough: tmuxPassthrough)
    }

    /// Forgets every id (after the terminal was reset or the screen cleared with `a=d,d=A`).
    public mutating func reset() { transmitted.removeAll() }
}
