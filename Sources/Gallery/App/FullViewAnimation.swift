import TerminalGraphics
import ImageCodecs

/// Plays an animated image (GIF/WebP frames) in the full view: which frame is showing, when the next
/// one is due, and the painted frames already made (so a short loop repaints from memory). Frames are
/// encoded on the paint queue, the current one and the next two at a time; a frame whose bytes are
/// not ready yet shows the latest one painted before it (dropped, as a player drops late frames).
/// The painted frames are a bounded ring: at most `keptFrames` and `keptBytes`, the ones furthest
/// behind the current frame dropped first (a GIF of a million frames grew without bound).
struct FullViewAnimation {
    private(set) var slot: SlotID?
    private(set) var imageID: UInt64?
    private(set) var frame = 0
    private(set) var deadline: Double?
    private var loopsDone = 0
    private var loopCount = 0
    private var durations: [Double] = []
    /// Painted frames for `cells`.
    private(set) var painted: [Int: RenderedImage] = [:]
    /// The size the frames are painted for.
    private(set) var cells: CellSize?
    /// Frames handed to the paint queue and not back yet.
    private var requested = Set<Int>()
    /// How many frames are encoded ahead of the one showing.
    static let framesAhead = 2
    /// At most this many painted frames are kept…
    static let keptFrames = 128
    /// …holding at most this many bytes.
    static let keptBytes = 32 << 20
    /// Bytes of the painted frames kept.
    private var paintedBytes = 0

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

    /// Paints for `cells` from now on (a resize, the view's size): earlier paintings are dropped.
    mutating func paint(for cells: CellSize?) {
        guard self.cells != cells else { return }
        self.cells = cells
        painted.removeAll()
        paintedBytes = 0
        requested.removeAll()
    }

    /// Frames to hand to the paint queue now (the current one and the next `framesAhead`), each once.
    mutating func framesToPaint() -> [Int] {
        guard cells != nil, !durations.isEmpty else { return [] }
        let wanted = (0...Self.framesAhead).map { (frame + $0) % durations.count }
        let new = wanted.filter { painted[$0] == nil && !requested.contains($0) }
        requested.formUnion(new)
        return Array(Set(new)).sorted { ($0 - frame + durations.count) % durations.count < ($1 - frame + durations.count) % durations.count }
    }

    /// Takes a frame the paint queue finished, when it is still for this image at this size.
    mutating func finished(_ index: Int, image: UInt64, cells: CellSize, painted picture: RenderedImage?) {
        guard image == imageID, cells == self.cells else { return }
        requested.remove(index)
        guard let picture else { return }
        paintedBytes += Self.size(of: picture) - (painted[index].map(Self.size) ?? 0)
        painted[index] = picture
        trim()
    }

    static func size(of picture: RenderedImage) -> Int { picture.bytes.count + picture.rows.reduce(0) { $0 + $1.count } }

    /// Drops the painted frames furthest behind the current one until the ring is within its bounds
    /// (the current frame and the ones ahead of it stay).
    private mutating func trim() {
        guard painted.count > Self.keptFrames || paintedBytes > Self.keptBytes, !durations.isEmpty else { return }
        let count = durations.count
        let behind = painted.keys.sorted { ($0 - frame + count) % count > ($1 - frame + count) % count }
        for index in behind where painted.count > Self.keptFrames || paintedBytes > Self.keptBytes {
            guard (index - frame + count) % count > Self.framesAhead else { break }
            paintedBytes -= painted.removeValue(forKey: index).map(Self.size) ?? 0
        }
    }

    /// What to show now: the current frame's picture, else the latest painted before it.
    var picture: RenderedImage? {
        guard !durations.isEmpty else { return nil }
        for back in 0..<durations.count {
            if let picture = painted[(frame - back + durations.count) % durations.count] { return picture }
        }
        return nil
    }

    /// Milliseconds until the next frame (for the poll timeout), nil when nothing plays.
    func millisecondsToNextFrame(now: Double) -> Int32? {
        guard let deadline else { return nil }
        return Int32(max(0, min(1000, (deadline - now) * 1000)).rounded(.up))
    }

    /// Frame `index` of `image` as a still image.
    func still(_ index: Int, of image: Image) -> Image {
        guard image.isAnimated, index < image.frames.count else { return image }
        return Image(width: image.width, height: image.height, pixels: image.frames[index].pixels, sourceSize: image.sourceSize)
    }
}
