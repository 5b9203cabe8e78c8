/// What frame the loop owes and when it may go: a change owes a frame (`dirty`), a terminal that may
/// have lost pictures a full repaint (`repaintAll`); frames no key asked for are paced to `interval`
/// (load updates, progress chunks, animation frames: 60 a second at most), a key's frame goes at
/// once. Also counts the frames presented, remembers what the last one showed of the grid (the
/// next frame says how far it scrolled from it) and which frames broke the paint invariant.
struct FrameSchedule {
    /// Shortest time between two frames that no key asked for (60 per second).
    static let minimumInterval = 1.0 / 60

    /// Something changed since the last frame.
    var dirty = true
    /// The next frame repaints everything.
    var repaintAll = true
    /// Shortest time between two frames no key asked for: `minimumInterval`; the tests' driver,
    /// which steps the loop by hand, sets 0.
    var interval = FrameSchedule.minimumInterval
    /// Frames presented.
    private(set) var presented = 0
    /// When the last frame no key asked for could be timed from.
    private(set) var lastPresent = 0.0
    /// The grid the last frame showed (layout and first item row; nil in the full view).
    var lastGridView: (layout: GalleryLayout, scrollRow: Int)?
    /// Frames that broke the paint invariant (`GalleryApp.checkPaintInvariant`), the first 64.
    var paintInvariantBreaches: [String] = []

    /// Whether a frame is owed.
    var isOwed: Bool { dirty || repaintAll }

    /// Whether the owed frame may go at `now`: at once for a key, else once `interval` has passed.
    func mayPresent(now: Double, forKey key: Bool) -> Bool { isOwed && (key || now - lastPresent >= interval) }

    /// Milliseconds until an owed frame's slot comes (0: now).
    func millisecondsToSlot(now: Double) -> Int32 { Int32(max(0, ((lastPresent + interval - now) * 1000).rounded(.up))) }

    /// A frame went out: nothing is owed.
    mutating func presentedFrame() {
        presented += 1
        dirty = false
        repaintAll = false
    }

    /// Paced frames are timed from `now` (after a frame the loop presented and flushed).
    mutating func paced(at now: Double) { lastPresent = now }
}
