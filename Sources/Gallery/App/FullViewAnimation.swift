import TerminalGraphics
import ImageCodecs

/// Plays an animated image (GIF/WebP frames) in the full view: which frame is showing, when the next
/// one is due, and the painted frames already made (so a loop repaints from memory).
struct FullViewAnimation {
    private(set) var slot: SlotID?
    private(set) var imageID: UInt64?
    private(set) var frame = 0
    private(set) var deadline: Double?
    private var loopsDone = 0
    private var loopCount = 0
    private var durations: [Double] = []
    var painted: [Int: RenderedImage] = [:]

    /// Starts (or keeps) playing `image` shown by `slot`; stops when it is nil or not animated.
    mutating func follow(slot: SlotID?, image: Image?, now: Double) {
        guard let slot, let image, image.isAnimated else {
            self = FullViewAnimation()
            return
        }
        if self.slot == slot && imageID == image.id { return }
        self = FullViewAnimation()
        self.slot = slot
        imageID = image.id
        loopCount = image.loopCount
        durations = image.frames.map { max(0.02, $0.duration > 0 ? $0.duration : 0.1) }
        deadline = now + durations[0]
    }

    /// Advances when the current frame's time is up; returns whether the frame changed.
    mutating func tick(now: Double) -> Bool {
        guard let due = deadline, now >= due, !durations.isEmpty else { return false }
        var next = frame + 1
        if next >= durations.count {
            loopsDone += 1
            if loopCount > 0 && loopsDone >= loopCount {
                deadline = nil
                return false
            }
            next = 0
        }
        frame = next
        deadline = max(now, due) + durations[frame]
        return true
    }

    /// Milliseconds until the next frame (for the poll timeout), nil when nothing plays.
    func millisecondsToNextFrame(now: Double) -> Int32? {
        guard let deadline else { return nil }
        return Int32(max(0, min(1000, (deadline - now) * 1000)).rounded(.up))
    }

    /// The current frame of `image` as a still image.
    func currentFrame(of image: Image) -> Image {
        guard image.isAnimated, frame < image.frames.count else { return image }
        return Image(width: image.width, height: image.height, pixels: image.frames[frame].pixels, sourceSize: image.sourceSize)
    }
}
