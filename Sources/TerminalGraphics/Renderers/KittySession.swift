/// Remembers which kitty image ids the terminal already holds, so an image is transmitted once and
/// later repaints send only the placement. A value owned by the thread that writes to the tty (the
/// gallery's frame writer keeps one).
///
/// ```swift
/// var session = KittySession()
/// writer.append(session.upload(id: id, bytes: rendered.upload?.bytes ?? []))  // once per id
/// writer.append(session.free([id]))                                        // evicted: `d=I`
/// writer.append(session.close())                                           // quit: `d=A`
/// ```
public struct KittySession: Sendable, Hashable {
    /// Ids transmitted so far (the terminal holds their data).
    public private(set) var transmitted: Set<UInt32> = []
    /// Whether anything was transmitted since the last `close()`: the screen needs clearing on quit.
    public private(set) var used = false
    /// Whether commands are wrapped for tmux passthrough.
    public var tmuxPassthrough: Bool
    /// The animations among `transmitted` (the terminal plays them), with their loop counts.
    public private(set) var animations: [UInt32: Int] = [:]
    /// Whether the animations play (else each stands on its first frame: paused, or focus lost).
    public private(set) var animationsPlay = true

    /// Creates an empty session.
    public init(tmuxPassthrough: Bool = false) {
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// `bytes` (the transmission of image `id`) the first time, nothing once the terminal holds it.
    public mutating func upload(id: UInt32, bytes: [UInt8]) -> [UInt8] {
        guard !transmitted.contains(id) else { return [] }
        transmitted.insert(id)
        used = true
        return bytes
    }

    /// `upload`'s bytes the first time, nothing once the terminal holds it; an animation is then
    /// set playing or stopped, as the others are (`setAnimationsPlay`).
    public mutating func upload(_ upload: ImageUpload) -> [UInt8] {
        tmuxPassthrough = upload.tmuxPassthrough
        let bytes = self.upload(id: upload.id, bytes: upload.bytes)
        guard !bytes.isEmpty, let loops = upload.animationLoops else { return bytes }
        animations[upload.id] = loops
        return bytes + KittyRenderer.animation(imageID: upload.id, playing: animationsPlay, loops: loops, tmuxPassthrough: tmuxPassthrough)
    }

    /// Plays or stops every animation the terminal holds, when that changes.
    public mutating func setAnimationsPlay(_ play: Bool) -> [UInt8] {
        guard play != animationsPlay else { return [] }
        animationsPlay = play
        return animations.keys.sorted().flatMap { id in
            KittyRenderer.animation(imageID: id, playing: play, loops: animations[id] ?? 0, tmuxPassthrough: tmuxPassthrough)
        }
    }

    /// Frees an image's data in the terminal (evicted from our caches); it will be transmitted again.
    public mutating func evict(imageID id: UInt32) -> [UInt8] {
        transmitted.remove(id)
        animations[id] = nil
        return KittyRenderer.delete(imageID: id, freeData: true, tmuxPassthrough: tmuxPassthrough)
    }

    /// `d=I` for each of `ids` the terminal holds (their placements go too); others are skipped.
    public mutating func free(_ ids: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        for id in ids where transmitted.contains(id) { out += evict(imageID: id) }
        return out
    }

    /// Removes every placement and frees all image data (`a=d,d=A`) when anything was transmitted;
    /// empty otherwise. The session is empty afterwards.
    public mutating func close() -> [UInt8] {
        defer {
            reset()
            used = false
        }
        return used ? KittyRenderer.deleteAll(tmuxPassthrough: tmuxPassthrough) : []
    }

    /// Forgets every id but `placed`: after an uppercase delete kitty holds only images that had a
    /// placement at that moment (it frees the others with the one named), so the rest are
    /// transmitted again before their next placement.
    public mutating func forget(keeping placed: Set<UInt32>) {
        transmitted.formIntersection(placed)
        animations = animations.filter { placed.contains($0.key) }
    }

    /// Forgets every id (after the screen was cleared or resized): images are transmitted again.
    /// `used` stays, so `close()` still clears the screen.
    public mutating func reset() {
        transmitted.removeAll()
        animations.removeAll()
    }
}
