import Foundation
import Locking
import ImageCodecs

/// The frame loop: one UI thread owns the model, the screen and the slots. It sleeps in `poll()` on
/// the input descriptor and the inbox's wake pipe; a key is handled and its frame presented in the
/// same iteration; load updates arrive through the inbox, already checked by the source's slot.
///
/// ```swift
/// let app = try GalleryApp(model: model, screen: CursesScreen(synchronizedOutput: false),
///                          source: ManagerImageSource(manager: manager, inbox: inbox), painter: RendererPainter(renderer: HalfBlockRenderer()))
/// app.run()
/// ```
public final class GalleryApp {
    /// The gallery state.
    public private(set) var model: GalleryModel
    /// The mailbox other threads post to.
    public let inbox: UIInbox<GalleryEvent>
    /// Status-bar counters.
    public var status = StatusInfo()
    /// Milliseconds from reading each key to presenting its frame.
    public private(set) var keyLatencies: [Double] = []
    /// Frames presented.
    public private(set) var framesPresented = 0

    let screen: Screen
    let source: CellImageSource
    let painter: CellPainter
    let composer: FrameComposer
    let inputDescriptor: Int32
    var decoder = InputDecoder()
    var keys = KeyMap()
    var images: [SlotID: Image] = [:]
    var painted: [SlotID: (image: UInt64, cells: TermSize, painted: PaintedImage)] = [:]
    /// The picture last asked of the paint queue per slot (asked again only when it changes).
    var paintRequests: [SlotID: (image: UInt64, cells: TermSize)] = [:]
    /// Pictures the paint queue finished, taken by the UI thread in `picture(for:image:cells:)`.
    let finishedPaints = Locked<[SlotID: (image: UInt64, cells: TermSize, painted: PaintedImage?)]>([:])
    /// Where renderers run (one at a time, in order of request).
    static let paintQueue = DispatchQueue(label: "sdgallery.paint", qos: .userInitiated)
    /// Items shown from the memory or disk cache (the status bar's "N cached").
    var cachedItems = Set<Int>()
    var dirty = true
    var repaintAll = true
    var animation = FullViewAnimation()
    var quitting = false
    /// Options every bind carries (`.progressive` unless `--no-progressive`; `.refresh` with `--refresh`).
    public var loadOptions: CellLoadOptions = [.progressive]
    /// Reads the downloader's counters into the status bar; called on every spinner step while
    /// something is active, so the "active" count settles even when the last download event was
    /// applied before its slot was freed (events only say something changed; this reads what is).
    public var statusRefresh: (@Sendable (inout StatusInfo) -> Void)?
    /// Milliseconds to wait for the rest of an escape sequence before a lone ESC counts as Esc.
    public var escapeTimeout: Int32 = 30

    /// Creates the loop. `inputDescriptor` is the terminal input (0).
    public init(model: GalleryModel, screen: Screen, source: CellImageSource, painter: CellPainter,
                theme: GalleryTheme = .colour, inputDescriptor: Int32 = 0, inbox: UIInbox<GalleryEvent>? = nil) throws(InboxError) {
        self.model = model
        self.screen = screen
        self.source = source
        self.painter = painter
        self.composer = FrameComposer(theme: theme)
        self.inputDescriptor = inputDescriptor
        if let inbox {
            self.inbox = inbox
        } else {
            self.inbox = try UIInbox<GalleryEvent>()
        }
    }

    /// Runs until the user quits, stdin closes, or a quit signal or event arrives; then cancels every
    /// load and restores the terminal.
    /// Shortest time between two frames that no key asked for (60 per second).
    static let minimumFrameInterval = 1.0 / 60

    public func run() {
        inbox.claimOwnership()
        model.resize(terminal: screen.size, cellPixels: screen.cellPixels)
        apply(model.reconcile())
        present()
        var lastPresent = 0.0
        while !quitting {
            let busy = status.pendingCells > 0 || status.activeDownloads > 0
            var timeout: Int32 = decoder.hasPending ? escapeTimeout : (busy ? 120 : 1000)
            if let next = animation.millisecondsToNextFrame(now: Self.now()) { timeout = min(timeout, next) }
            if dirty || repaintAll {
                // A frame is owed: wake when its slot comes.
                let wait = (lastPresent + Self.minimumFrameInterval - Self.now()) * 1000
                timeout = min(timeout, Int32(max(0, wait.rounded(.up))))
            }
            var fds = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            var inputAt: Double?
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                inputAt = Self.now()
                if !readInput() { quitting = true }
            } else if ready == 0 && decoder.hasPending {
                handle(keys.actions(for: decoder.flush(), at: Self.now()))
            }
            for event in screen.takeEvents() { handle(event) }
            for event in inbox.drain() { handle(event) }
            if status.pendingCells > 0 || status.activeDownloads > 0 {
                // The spinner turns with time (one step per 120 ms), not with the number of events.
                let phase = Int(Self.now() / 0.12)
                if phase != status.spinnerPhase {
                    statusRefresh?(&status)
                    status.spinnerPhase = phase
                    dirty = true
                }
            }
            apply(model.reconcile())
            followAnimation()
            if animation.tick(now: Self.now()) { dirty = true }
            // Load updates (progress chunks, partial images) are paced to 60 frames a second; a key's
            // frame is presented at once.
            let now = Self.now()
            if (dirty || repaintAll) && (inputAt != nil || now - lastPresent >= Self.minimumFrameInterval) {
                present()
                lastPresent = Self.now()
            }
            if let inputAt { keyLatencies.append((Self.now() - inputAt) * 1000) }
        }
        if dirty || repaintAll { present() }  // the frame still owed when the quit came
        source.cancelAll()
        // Events still queued hold closures of loads and status updates (which hold the downloader):
        // drop them now, so nothing the inbox holds outlives the loop.
        _ = inbox.drain()
        screen.close()
    }

    /// Reads what is available on the input; false at end of input.
    func readInput() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(inputDescriptor, &buffer, buffer.count)
        if count == 0 { return false }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        let events = decoder.feed(buffer[0..<count])
        var actions = keys.actions(for: events, at: Self.now())
        // Any key closes the help, even one without an action of its own.
        if model.showingHelp, actions.isEmpty, events.contains(where: { if case .mouse = $0 { return false } else { return true } }) {
            actions = [.back]
        }
        handle(actions)
        return true
    }

    /// Applies user actions to the model.
    func handle(_ actions: [GalleryAction]) {
        for action in actions {
            let outcome = model.perform(action)
            if outcome.quit { quitting = true }
            if outcome.redraw { repaintAll = true }
            if outcome.changed { dirty = true }
            if !outcome.refresh.isEmpty { source.beginScreen() }
            for binding in outcome.refresh { bind(binding, options: [.refresh]) }
        }
    }

    func handle(_ event: ScreenEvent) {
        switch event {
        case .resized:
            let size = screen.updateSize()
            model.resize(terminal: size, cellPixels: screen.cellPixels)
            painted.removeAll()
            paintRequests.removeAll()
            finishedPaints.withLock { $0.removeAll() }
            animation.painted.removeAll()
            repaintAll = true
        case .quit: quitting = true
        }
    }

    /// Applies one inbox event on the UI thread.
    func handle(_ event: GalleryEvent) {
        switch event {
        case .quit: quitting = true
        case .work(let work):
            work()
            dirty = true
        case .status(let change):
            change(&status)
            dirty = true
        }
    }

    /// Applies one load update to the cell bound to `slot`. The source calls this on the UI thread
    /// only for the slot's current load, so there is no staleness check here.
    func apply(_ update: CellImageUpdate, to slot: SlotID) {
        guard let binding = model.binding(of: slot) else { return }
        dirty = true
        switch update {
        case .progress(let received, let expected):
            if images[slot] == nil { model.setState(.progress(received: received, expected: expected), of: binding.index) }
        case .partial(let image):
            images[slot] = image
            model.setState(.partial, of: binding.index)
        case .final(let image, let details):
            images[slot] = image
            countCached(binding.index, cached: details.origin == "memory" || details.origin == "disk")
            model.setState(.final, of: binding.index)
            model.setInfo(of: binding.index, pixelSize: details.pixelSize, byteCount: details.byteCount, format: details.format, origin: details.origin)
        case .failed(let message):
            if case .failed = model.items[binding.index].state {} else { status.failures += 1 }
            model.setState(.failure(message), of: binding.index)
        case .notModified:
            model.setState(.final, of: binding.index)
        }
        updatePendingCount()
    }

    /// Hands a model diff to the image source: cancels first, then binds as one screen in order of
    /// importance (the selection first: downloads go out in that order, ahead of older screens'),
    /// then prefetches.
    func apply(_ diff: BindingDiff) {
        guard !diff.isEmpty else { return }
        for cancelled in diff.cancels {
            source.cancel(slot: cancelled.slot)
            images[cancelled.slot] = nil
            painted[cancelled.slot] = nil
        }
        for request in diff.prefetchCancels { source.cancelPrefetch(request) }
        if !diff.binds.isEmpty { source.beginScreen() }
        for binding in diff.binds { bind(binding, options: []) }
        for request in diff.prefetchStarts where request.index < model.count {
            let item = model.items[request.index]
            if item.problem == nil { source.prefetch(request, item: item) }
        }
        dirty = true
        updatePendingCount()
    }

    func bind(_ binding: SlotBinding, options: CellLoadOptions) {
        guard binding.index < model.count else { return }
        let item = model.items[binding.index]
        guard item.problem == nil else { return }  // a bad list line: its cell shows the diagnostic
        let slot = binding.slot
        // Weak: the source's slot keeps this closure while its load runs, and the app owns the source.
        source.bind(slot: slot, item: item, targetSize: binding.target, options: options.union(loadOptions)) { [weak self] update in
            self?.apply(update, to: slot)
        }
    }

    /// Counts the items whose image came from the memory or disk cache (not cache hits: one item
    /// rebound ten times counts once, so the count never exceeds the number of images).
    func countCached(_ index: Int, cached: Bool) {
        let changed = cached ? cachedItems.insert(index).inserted : cachedItems.remove(index) != nil
        if changed { status.cacheHits = cachedItems.count }
    }

    func updatePendingCount() {
        status.pendingCells = model.bindings.filter { !model.items[$0.index].state.isSettled }.count
    }

    /// Plays the full view's image when it is animated.
    func followAnimation() {
        let slot = model.fullView.flatMap { model.binding(showing: $0)?.slot }
        animation.follow(slot: slot, image: slot.flatMap { images[$0] }, now: Self.now())
    }

    /// The painted image for an item, from the per-slot cache when the image and size are unchanged;
    /// the current frame when it is the full view's animation.
    func picture(for binding: SlotBinding, image: Image, cells: TermSize) -> PaintedImage? {
        if animation.slot == binding.slot, image.isAnimated {
            if let cached = animation.painted[animation.frame], cached.cells.columns <= cells.columns, cached.cells.rows <= cells.rows {
                return cached
            }
            let painted = painter.paint(animation.currentFrame(of: image), cells: cells, cellPixels: model.cellPixels)
            animation.painted[animation.frame] = painted
            return painted
        }
        if let cached = painted[binding.slot], cached.image == image.id, cached.cells == cells { return cached.painted }
        let slot = binding.slot
        if let done = finishedPaints.withLock({ $0.removeValue(forKey: slot) }), let result = done.painted {
            painted[slot] = (done.image, done.cells, result)
            if done.image == image.id && done.cells == cells { return result }
        }
        // Encode off the UI thread (sixel and kitty take milliseconds an image); the frame shows the
        // cell's previous picture of the same size, or its placeholder, until the bytes are ready.
        if paintRequests[slot].map({ $0.image != image.id || $0.cells != cells }) ?? true {
            paintRequests[slot] = (image.id, cells)
            let painter = painter, inbox = inbox, results = finishedPaints, cellPixels = model.cellPixels
            Self.paintQueue.async {
                let result = painter.paint(image, cells: cells, cellPixels: cellPixels)
                results.withLock { $0[slot] = (image.id, cells, result) }
                inbox.post(.work {})
            }
        }
        if let previous = painted[slot], previous.cells == cells { return previous.painted }
        return nil
    }

    /// Composes and shows a frame.
    func present() {
        let placements = Dictionary(model.placements.map { ($0.index, $0.image) }, uniquingKeysWith: { a, _ in a })
        var frame = composer.compose(model, status: status) { index in
            guard let binding = model.binding(showing: index), let image = images[binding.slot], let rect = placements[index] else { return nil }
            return picture(for: binding, image: image, cells: TermSize(columns: rect.columns, rows: rect.rows))
        }
        frame.released = painter.takeReleasedUploads()
        screen.present(frame, repaintAll: repaintAll)
        framesPresented += 1
        dirty = false
        repaintAll = false
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
