import TerminalGraphics
import ImageCodecs

/// Plays one animated image (GIF, WebP, AVIF, JPEG XL frames) in one cell or the full view: which
/// frame is showing, when the next one is due, and the painted frames already made (so a short loop
/// repaints from memory). Frames are painted on the paint queue, the current one and the next two;
/// a frame advances only once its picture is painted and the terminal's budget allows it
/// (`CellAnimations`): a slow encoder or a slow terminal slows the animation rather than leaving
/// holes. The painted frames are a bounded ring, at most `keptFrames` and `keptBytes`, the ones
/// furthest behind the current frame dropped first (a GIF of a million frames grew without bound).
struct AnimationPlayer {
    /// The ring's bounds.
    struct Ring: Hashable {
        var frames: Int
        var bytes: Int
        /// The full view's: one picture on screen, big frames.
        static let fullView = Ring(frames: 128, bytes: 32 << 20)
        /// A grid or list cell's: many on screen, small frames.
        static let cell = Ring(frames: 64, bytes: 2 << 20)
    }

    let imageID: UInt64
    private(set) var frame = 0
    /// When the current frame's time is up; nil once a finite loop count has played out.
    private(set) var deadline: Double?
    private var loopsDone = 0
    private let loopCount: Int
    private let durations: [Double]
    private let ring: Ring
    /// Painted frames for `cells`.
    private(set) var painted: [Int: RenderedImage] = [:]
    /// The size the frames are painted for.
    private(set) var cells: CellSize?
    /// Frames handed to the paint queue and not back yet.
    private var requested = Set<Int>()
    /// Frames shown at least once (kitty: their image data is in the terminal already).
    private var shownOnce = Set<Int>()
    /// How many frames are painted ahead of the one showing.
    static let framesAhead = 2
    /// Bytes of the painted frames kept.
    private var paintedBytes = 0

    /// A player of `image` (animated) starting now.
    init(image: Image, now: Double, ring: Ring) {
        imageID = image.id
        loopCount = image.loopCount
        durations = image.frameDurations
        deadline = durations.isEmpty ? nil : now + durations[0]
        self.ring = ring
    }

    /// The frame after the current one, nil when the loop count has played out.
    var nextFrame: Int? {
        guard deadline != nil, !durations.isEmpty else { return nil }
        let next = frame + 1
        if next < durations.count { return next }
        return loopCount > 0 && loopsDone + 1 >= loopCount ? nil : 0
    }

    /// Whether the current frame's time is up (and there is a next frame).
    func isDue(now: Double) -> Bool { deadline.map { now >= $0 } ?? false }

    /// The next frame's picture, when it is painted (the frame cannot advance before).
    var nextPicture: RenderedImage? { nextFrame.flatMap { painted[$0] } }

    /// What showing the next frame sends to the terminal: its picture, or for kitty only its
    /// placement once its image data was sent.
    var nextCost: Int {
        guard let next = nextFrame, let picture = painted[next] else { return 0 }
        return Self.cost(of: picture, sentBefore: shownOnce.contains(next))
    }

    /// Bytes a picture costs the terminal: text redraws are cheap (not counted), a kitty frame shown
    /// before costs its placement only.
    static func cost(of picture: RenderedImage, sentBefore: Bool) -> Int {
        if !picture.rows.isEmpty { return 0 }
        if picture.upload != nil, sentBefore { return 64 }
        return picture.bytes.count + (picture.upload?.bytes.count ?? 0)
    }

    /// Shows the next frame (its time is up and it is painted); the loop ends after `loopCount` loops.
    mutating func advance(now: Double) {
        guard let due = deadline else { return }
        guard let next = nextFrame else {
            deadline = nil
            return
        }
        if next == 0 { loopsDone += 1 }
        frame = next
        shownOnce.insert(next)
        deadline = max(now, due) + durations[frame]
        if nextFrame == nil { deadline = nil }
    }

    /// Paints for `cells` from now on (a resize, the view's size): earlier paintings are dropped.
    mutating func paint(for cells: CellSize?) {
        guard self.cells != cells else { return }
        self.cells = cells
        painted.removeAll()
        paintedBytes = 0
        requested.removeAll()
        shownOnce.removeAll()
    }

    /// Frames to hand to the paint queue now (the current one and the next `framesAhead`), each
    /// once, at most `limit` of them.
    mutating func framesToPaint(limit: Int) -> [Int] {
        guard cells != nil, !durations.isEmpty, limit > 0 else { return [] }
        var new: [Int] = []
        for ahead in 0...Self.framesAhead {
            let index = (frame + ahead) % durations.count
            guard new.count < limit, painted[index] == nil, !requested.contains(index), !new.contains(index) else { continue }
            new.append(index)
        }
        requested.formUnion(new)
        return new
    }

    /// Takes a frame the paint queue finished, when it is still for this image at this size.
    mutating func finished(_ index: Int, cells: CellSize, painted picture: RenderedImage?) {
        guard cells == self.cells else { return }
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
        guard painted.count > ring.frames || paintedBytes > ring.bytes, !durations.isEmpty else { return }
        let count = durations.count
        let behind = painted.keys.sorted { ($0 - frame + count) % count > ($1 - frame + count) % count }
        for index in behind where painted.count > ring.frames || paintedBytes > ring.bytes {
            guard (index - frame + count) % count > Self.framesAhead else { break }
            paintedBytes -= painted.removeValue(forKey: index).map(Self.size) ?? 0
        }
    }

    /// What to show now: the current frame's picture (nil until frame 0 is painted: the still
    /// picture stands in).
    var picture: RenderedImage? { painted[frame] }

}
