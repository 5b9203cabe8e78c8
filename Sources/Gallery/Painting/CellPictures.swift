import Dispatch
import ImageCodecs
import TerminalGraphics

/// The one owner of what each cell shows, between a load result and the bytes a frame places: per
/// slot, one record holding the decoded image the load delivered, the picture painted for it and the
/// paint still out. Painting (sixel, kitty: milliseconds an image) runs on the paint queue; each
/// result comes back as one typed inbox event (`GalleryEvent.painted`) and is taken only when it is
/// still what the slot wants: same binding generation, same image, same size. One staleness rule:
/// a binding that ends bumps its slot's generation, so nothing painted for it can reach the cell
/// afterwards — the same rule `ImageSlot` applies to load results.
///
/// Also owns the animations playing on screen (`CellAnimations`: the full view's, and each cell's
/// with `--animate`, frame by frame; where the terminal plays animations itself (kitty) a cell's
/// picture is its whole animation instead, `terminalPlays`) and encoding the next screen ahead. UI
/// thread only.
final class CellPictures {
    /// A picture: what was painted, and for which image at which size.
    struct Picture {
        var key: PictureKey
        var painted: RenderedImage
    }

    /// Everything about one slot's picture.
    struct Record {
        /// Bumped when the slot's binding ends.
        var generation: UInt64 = 0
        /// The image the load delivered (partial or final), nil until one came.
        var image: Image?
        /// The latest picture painted for this binding.
        var shown: Picture?
        /// The paint out on the queue, if any.
        var pending: PictureKey?
        /// The last picture the painter could not paint (it returned nil): not asked again until the
        /// image or the size changes, so a cell it cannot draw keeps its placeholder instead of being
        /// painted again on every frame.
        var failed: PictureKey?
    }

    /// Where renderers run (one at a time, in order of request).
    static let queue = DispatchQueue(label: "sdgallery.paint", qos: .userInitiated)

    let painter: CellPainter
    private let post: @Sendable (PaintResult) -> Void
    private(set) var records: [SlotID: Record] = [:]
    /// The animations playing.
    var animations: CellAnimations
    /// Paints handed to the paint queue whose results have not come back (`accept`), encoding ahead
    /// not counted (it shows nothing by itself).
    private(set) var paintsInFlight = 0
    /// Items whose pictures were encoded ahead, with the size they were encoded for.
    private var encodedAhead: [Int: CellSize] = [:]
    /// Cells whose animation the terminal plays (`CellPainter.playsAnimations`): their picture is
    /// every frame at once, sent once, and no player ticks for them.
    private(set) var terminalPlays: Set<SlotID> = []
    /// The most decoded frame bytes a cell's animation may have for the terminal to play it: all of
    /// them go in one upload, which the terminal parses ahead of the next key's frame (the demo's
    /// 12 animations sent 0.37 MB each). A longer one plays frame by frame within the byte budget.
    static let terminalAnimationLimit = 8 << 20

    /// Creates the owner; `post` delivers a finished paint to the UI thread (the inbox).
    init(painter: CellPainter, post: @escaping @Sendable (PaintResult) -> Void) {
        self.painter = painter
        self.post = post
        animations = CellAnimations(bytesPerSecond: AnimationSetting.on.bytesPerSecond)
    }

    /// The image the slot's load delivered last.
    func image(of slot: SlotID) -> Image? { records[slot]?.image }

    /// A load delivered `image` (partial or final) to `slot`.
    func setImage(_ image: Image, of slot: SlotID) { records[slot, default: Record()].image = image }

    /// The slot's binding ended (its item left the screen, or the slot is bound anew): its image and
    /// pictures go, and a paint still out for it will be dropped.
    func bindingEnded(_ slot: SlotID) {
        guard var record = records[slot] else { return }
        record = Record(generation: record.generation &+ 1)
        records[slot] = record
        animations.stop(slot)
        terminalPlays.remove(slot)
    }

    /// Forgets every picture (the cell size or the terminal changed): everything is painted again.
    func forgetPictures() {
        for slot in records.keys {
            records[slot]?.generation &+= 1
            records[slot]?.shown = nil
            records[slot]?.pending = nil
            records[slot]?.failed = nil
        }
        animations.forgetPictures()
    }

    /// The picture of `slot`'s image in `cells`: painted already (by this slot, ahead, or for another
    /// cell), else asked of the paint queue, showing meanwhile the slot's previous picture of the
    /// same size, or nothing (the frame shows the placeholder).
    func picture(for slot: SlotID, cells: CellSize, cellPixels: PixelSize, now: Double) -> RenderedImage? {
        guard let image = records[slot]?.image else { return nil }
        let animation = playsInTerminal(slot, image)
        if let player = animations.player(of: slot), player.imageID == image.id {
            animations.drawn(slot, in: cells)
            // Until its first frame is painted, the still picture (painted as a thumbnail) stands in.
            if let playing = animations.player(of: slot), playing.cells == cells, let frame = playing.picture { return frame }
        }
        var key = PictureKey(image: image.id, cells: cells, animation: animation)
        guard var record = records[slot] else { return nil }
        defer { records[slot] = record }
        if let shown = record.shown, shown.key == key { return shown.painted }
        var ready = animation ? painter.paintedAnimation(image, cells: cells, cellPixels: cellPixels) : nil
        if animation, ready == nil, record.shown?.key.cells != cells {
            // A whole animation costs a frame's encode per frame (24 frames: 30 ms, a still 1 ms):
            // until the cell shows something of this size, its still goes first.
            key.animation = false
            if let shown = record.shown, shown.key == key { return shown.painted }
        }
        if record.failed == key { return nil }
        if !key.animation { ready = painter.painted(image, cells: cells, cellPixels: cellPixels) }
        if let ready {
            record.shown = Picture(key: key, painted: ready)
            record.pending = nil
            // The still was ready (encoded ahead): the whole animation is asked for now, or nothing
            // would ask again before the loop settles on the still.
            if animation, !key.animation { requestPaint(of: image, key: PictureKey(image: image.id, cells: cells, animation: true), for: slot, record: &record, cellPixels: cellPixels) }
            return ready
        }
        if record.pending != key { requestPaint(of: image, key: key, for: slot, record: &record, cellPixels: cellPixels) }
        if let previous = record.shown, previous.key.cells == cells { return previous.painted }
        return nil
    }

    /// Hands the paint queue `key`'s picture of `image` for `slot` (its still, or its whole animation).
    private func requestPaint(of image: Image, key: PictureKey, for slot: SlotID, record: inout Record, cellPixels: PixelSize) {
        record.pending = key
        paintsInFlight += 1
        let painter = painter, post = post, generation = record.generation, cells = key.cells
        Self.queue.async {
            post(PaintResult(slot: slot, generation: generation, key: key, frame: nil,
                             painted: key.animation ? painter.paintAnimation(image, cells: cells, cellPixels: cellPixels)
                                 : painter.paint(image, cells: cells, cellPixels: cellPixels)))
        }
    }

    /// Takes a finished paint: kept when it is still what its slot (or the animation) wants. One
    /// staleness rule for stills and animation frames alike: the slot's generation.
    func accept(_ result: PaintResult) {
        paintsInFlight -= 1
        let current = records[result.slot]?.generation == result.generation
        if let frame = result.frame {
            animations.finished(slot: result.slot, image: result.key.image, frame: frame, cells: result.key.cells,
                                painted: current ? result.painted : nil)
            return
        }
        guard current, var record = records[result.slot], record.pending == result.key else { return }
        record.pending = nil
        if let painted = result.painted {
            record.shown = Picture(key: result.key, painted: painted)
        } else {
            record.failed = result.key
        }
        records[result.slot] = record
    }

    /// Whether the slot's picture of its image in `cells` is ready, or being painted for its current
    /// binding (or the painter could not paint it): the invariant every frame keeps for each visible
    /// cell whose image is final.
    func isShownOrPainting(_ slot: SlotID, cells: CellSize) -> Bool {
        guard let record = records[slot], let image = record.image else { return false }
        let still = PictureKey(image: image.id, cells: cells)
        // A cell whose animation the terminal plays shows its still until the animation is painted.
        let keys = playsInTerminal(slot, image) ? [PictureKey(image: image.id, cells: cells, animation: true), still] : [still]
        return keys.contains { record.shown?.key == $0 || record.pending == $0 || record.failed == $0 }
    }

    /// Plays the animated images of `slots` (in priority order, each with its ring of painted
    /// frames); every other animation stops. Where the terminal plays animations, the cells' play
    /// there (the full view's frames, and a cell's over `terminalAnimationLimit`, too large to send
    /// at once, still go one by one).
    func followAnimations(_ slots: [(slot: SlotID, ring: AnimationPlayer.Ring)], now: Double) {
        terminalPlays = painter.playsAnimations ? Set(slots.filter { entry in
            entry.ring == .cell && (records[entry.slot]?.image.map { $0.allFramesCost <= Self.terminalAnimationLimit } ?? false)
        }.map(\.slot)) : []
        animations.follow(slots.filter { !terminalPlays.contains($0.slot) }
            .compactMap { entry in records[entry.slot]?.image.map { (entry.slot, $0, entry.ring) } }, now: now)
    }

    /// Whether `slot`'s picture of `image` is its whole animation, played by the terminal.
    private func playsInTerminal(_ slot: SlotID, _ image: Image) -> Bool { image.isAnimated && terminalPlays.contains(slot) }

    /// Advances the animations; true when a frame changed.
    func tickAnimations(now: Double) -> Bool { animations.tick(now: now) }

    /// Hands the paint queue the animation frames due next, for the rectangles the last frame drew
    /// the playing cells in (once per frame, after `picture(for:)` was asked for each cell).
    func paintAnimationFrames(cellPixels: PixelSize) {
        let painter = painter, post = post
        for (slot, frame, cells) in animations.framesToPaint() {
            guard let player = animations.player(of: slot), let record = records[slot], let image = record.image,
                  image.id == player.imageID else {
                animations.finished(slot: slot, image: 0, frame: frame, cells: cells, painted: nil)  // its player is stale
                continue
            }
            paintsInFlight += 1
            let generation = record.generation
            Self.queue.async {
                // A streamed animation decodes the frame here, on the paint queue.
                let still = image.frameImage(frame)
                post(PaintResult(slot: slot, generation: generation, key: PictureKey(image: image.id, cells: cells), frame: frame,
                                 painted: painter.paint(still, cells: cells, cellPixels: cellPixels)))
            }
        }
    }

    /// Encodes ahead, into the painter's cache, the pictures of `images` (the next screen's, which the
    /// memory cache holds): a PageDown then shows them in its first frame.
    func encodeAhead(_ images: [(index: Int, image: Image)], cells: CellSize, cellPixels: PixelSize) {
        if encodedAhead.count > 4096 { encodedAhead.removeAll() }
        let painter = painter
        for (index, image) in images where encodedAhead[index] != cells {
            encodedAhead[index] = cells
            guard painter.painted(image, cells: cells, cellPixels: cellPixels) == nil else { continue }
            Self.queue.async { _ = painter.paint(image, cells: cells, cellPixels: cellPixels) }
        }
    }

    /// Whether `index` was already encoded ahead for `cells`.
    func wasEncodedAhead(_ index: Int, cells: CellSize) -> Bool { encodedAhead[index] == cells }
}

/// Which picture: an image at a size in cells.
struct PictureKey: Sendable, Hashable {
    /// `Image.id`.
    var image: UInt64
    /// The rectangle it is painted for.
    var cells: CellSize
    /// Whether it is the whole animation, for the terminal to play.
    var animation = false
}

/// A paint the queue finished, on its way to the UI thread (`GalleryEvent.painted`).
public struct PaintResult: Sendable {
    /// The slot it was painted for.
    var slot: SlotID
    /// The slot's binding generation when it was asked.
    var generation: UInt64
    /// The image and size.
    var key: PictureKey
    /// The animation frame (`CellAnimations`); nil for a cell's still picture.
    var frame: Int?
    /// The bytes, nil when the image could not be painted.
    var painted: RenderedImage?
}
