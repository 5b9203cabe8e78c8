import Foundation
import Locking
import ImageCodecs
import TerminalGraphics
import WebImage

/// The frame loop: one UI thread owns the model, the screen and the slots. It sleeps in `poll()` on
/// the input descriptor and the inbox's wake pipe; a key is handled and its frame presented in the
/// same iteration; load updates arrive through the inbox, already checked by the source's slot.
///
/// ```swift
/// let app = try GalleryApp(model: model, screen: CursesScreen(profile: TerminalProfile.detect()),
///                          source: ManagerImageSource(manager: manager, inbox: inbox), painter: RendererPainter(renderer: HalfBlockRenderer()))
/// app.run()
/// ```
public final class GalleryApp {
    /// The gallery state.
    public internal(set) var model: GalleryModel
    /// The mailbox other threads post to.
    public let inbox: UIInbox<GalleryEvent>
    /// Status-bar counters.
    public var status: StatusInfo {
        get { statusBar.info }
        set { statusBar.info = newValue }
    }
    /// The bar's counters and their bookkeeping.
    var statusBar = StatusBarState()
    /// Key-to-frame times (`keyLatencies`).
    var keyLatency = KeyLatencyMeter()
    /// Milliseconds from reading each key to presenting its frame.
    public var keyLatencies: [Double] { keyLatency.latencies }
    /// When downloads wait for a fling to end and prefetches for the screen to be complete.
    var pacing = LoadPacing()
    /// The filter generation running scans serve (`GalleryApp+Filter`); set on the UI thread, read by scans.
    let currentFilterGeneration = Locked(0)
    /// What frame is owed and when it may go; frames presented; the grid the last one showed.
    var frames = FrameSchedule()
    /// Frames presented.
    public var framesPresented: Int { frames.presented }
    /// Something changed since the last frame (`FrameSchedule.dirty`).
    var dirty: Bool {
        get { frames.dirty }
        set { frames.dirty = newValue }
    }
    /// The next frame repaints everything (`FrameSchedule.repaintAll`).
    var repaintAll: Bool {
        get { frames.repaintAll }
        set { frames.repaintAll = newValue }
    }
    /// Keys (and mouse reports) read and handled.
    public var keysRead: Int { input.keysRead }
    /// The "frame written", "waiting" and "settled" lines (`GalleryApp+Settle`).
    var settleReporter = SettleReporter()
    /// Where those lines go (`SDGALLERY_EVENT_LOG`); nil: nowhere.
    public var eventLog: EventLog? {
        get { settleReporter.log }
        set { settleReporter.log = newValue }
    }

    let screen: Screen
    let source: CellImageSource
    var composer: FrameComposer
    /// The terminal input: its decoder, key map and escape timing.
    var input: KeyInput
    /// What each cell shows: images, pictures, paints in flight, the animation (the one owner).
    let pictures: CellPictures
    /// Breaches of the paint invariant (`checkPaintInvariant`): empty unless a cell was left blank.
    public var paintInvariantBreaches: [String] { frames.paintInvariantBreaches }
    /// When the quit (key, signal, end of input) was taken; nil while the gallery runs. `--stats`
    /// reports how long the exit took from here (loads cancelled, terminal restored, cache writes done).
    public private(set) var quitRequestedAt: Double?
    /// Whether the loop ends after this step.
    var quitting: Bool { quitRequestedAt != nil }
    /// What the runner plugs in: the options of every bind, the status refresh, saving, focus repaints.
    public var settings = GalleryAppSettings()
    /// How long an unfinished escape sequence waits for its rest.
    public var escapes: EscapeTiming {
        get { input.escapes }
        set { input.escapes = newValue }
    }

    /// Creates the loop. `inputDescriptor` is the terminal input (0).
    public init(model: GalleryModel, screen: Screen, source: CellImageSource, painter: CellPainter,
                theme: GalleryTheme = .colour, inputDescriptor: Int32 = 0, inbox: UIInbox<GalleryEvent>? = nil) throws(InboxError) {
        self.model = model
        self.screen = screen
        self.source = source
        self.composer = FrameComposer(theme: theme)
        self.input = KeyInput(descriptor: inputDescriptor)
        let mailbox: UIInbox<GalleryEvent>
        if let inbox { mailbox = inbox } else { mailbox = try UIInbox<GalleryEvent>() }
        self.inbox = mailbox
        pictures = CellPictures(painter: painter) { mailbox.post(.painted($0)) }
    }

    /// Runs until the user quits, stdin closes, or a quit signal or event arrives; then cancels every
    /// load and restores the terminal.
    public func run() {
        start()
        while !quitting {
            var fds = [pollfd(fd: input.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            // The terminal is behind: wake when it can take more.
            if screen.outputBacklog > 0, let output = screen.outputDescriptor {
                fds.append(pollfd(fd: output, events: Int16(POLLOUT), revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), pollTimeout())
            screen.flushOutput()
            if ready < 0 && errno != EINTR { break }
            step(input: fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, timedOut: ready == 0)
        }
        if statusBar.pendingCountStale { updatePendingCount() }
        if dirty || repaintAll { present() }  // the frame still owed when the quit came
        source.cancelAll()
        // Events still queued hold closures of loads and status updates (which hold the downloader):
        // drop them now, so nothing the inbox holds outlives the loop.
        _ = inbox.drain()
        screen.close()
    }

    /// Ends the loop after this step (the first quit's time is kept).
    func quit() {
        if quitRequestedAt == nil { quitRequestedAt = Self.now() }
    }

    /// Before the first wait: takes the inbox, sizes the model, binds the first screen and shows it.
    func start() {
        inbox.claimOwnership()
        escapes.expectReplies(now: Self.now())
        model.resize(terminal: screen.size, cellPixels: screen.cellPixels)
        apply(model.reconcile())
        pacePrefetches(now: Self.now(), screenChanged: true)
        present()
    }

    /// How long the loop may wait in `poll()`: the escape timeout while a sequence is incomplete,
    /// the spinner's step while something loads, the next animation frame, the end of a fling, or
    /// the slot of a frame that is owed.
    func pollTimeout() -> Int32 {
        let busy = status.pendingCells > 0 || status.activeDownloads > 0
        var timeout: Int32 = input.timeout(now: Self.now()) ?? (busy ? 120 : 1000)
        if let next = pictures.animations.millisecondsToNextFrame(now: Self.now()) { timeout = min(timeout, next) }
        if let release = pacing.flingEndsIn(now: Self.now()) { timeout = min(timeout, release) }
        if let release = pacing.prefetchesReleaseIn(now: Self.now()) { timeout = min(timeout, release) }
        if frames.isOwed && terminalKeepsUp(forKey: keyLatency.isWaiting) {
            // A frame is owed: wake when its slot comes (while the terminal is behind, its room
            // for more bytes wakes the loop instead).
            timeout = min(timeout, frames.millisecondsToSlot(now: Self.now()))
        }
        return timeout
    }

    /// One iteration of the frame loop after its wait: `input` when the input descriptor is
    /// readable, `timedOut` when the wait ended with nothing ready (an incomplete escape sequence
    /// then counts as what it has so far). Reads keys, takes screen and inbox events, binds what the
    /// model now shows, presents a frame when one is owed (paced to `FrameSchedule.interval` unless a
    /// key asked for it) and encodes ahead when idle. The tests' driver runs the same step.
    func step(input readable: Bool, timedOut: Bool) {
        var inputAt: Double?
        if readable {
            let now = Self.now()
            inputAt = now
            keyLatency.keyRead(at: now)
            if !readInput() { quit() }
        } else if timedOut {
            let pending = input.flushIfOver(now: Self.now())
            input.keysRead += pending.count
            if !pending.isEmpty { handle(input.keys.actions(for: pending, at: Self.now())) }
        }
        for event in screen.takeEvents() { handle(event) }
        for event in inbox.drain() { handle(event) }
        followFilter()
        if statusBar.pendingCountStale { updatePendingCount() }
        if status.pendingCells > 0 || status.activeDownloads > 0 {
            // The spinner turns with time (one step per 120 ms), not with the number of events.
            let phase = Int(Self.now() / 0.12)
            if phase != status.spinnerPhase {
                settings.statusRefresh?(&status)
                status.spinnerPhase = phase
                dirty = true
            }
        }
        let diff = model.reconcile()
        if inputAt != nil, !diff.binds.isEmpty { screenChangedByKey(at: Self.now()) }
        apply(diff)
        releaseDownloadsAfterFling(now: Self.now())
        pacePrefetches(now: Self.now(), screenChanged: !diff.binds.isEmpty)
        followAnimations()
        if pictures.tickAnimations(now: Self.now()) { dirty = true }
        // Load updates (progress chunks, partial images) are paced to 60 frames a second; a key's
        // frame is presented at once.
        let now = Self.now()
        if frames.mayPresent(now: now, forKey: inputAt != nil) && terminalKeepsUp(forKey: keyLatency.isWaiting) {
            present()
            frames.paced(at: Self.now())
            screen.flushOutput()
        }
        encodeAheadWhenIdle()
        // A key's latency ends with the frame that shows it (or at once when it changed nothing).
        if !dirty, !repaintAll { keyLatency.shown(at: Self.now()) }
        reportProgress()
    }

    /// Reads what is available on the input; false at end of input.
    func readInput() -> Bool {
        let now = Self.now()
        guard let events = input.read(now: now) else { return false }
        for event in events {
            if case .graphicsReply = event {
                // The terminal refused a graphics command (kitty `ENOENT`): a cell may be blank.
                status.graphicsErrors += 1
                continue
            }
            if case .cellSizeReply(let replies) = event {
                // A re-asked cell size (after a resize; a font zoom changes it): lay out again if it changed.
                if screen.learnCellSize(replies) { relayout() }
                continue
            }
            if case .focus(let gained) = event {
                // The window came back (a desktop switch unmaps it): xterm restores only some of its
                // sixels from its own record, so everything is painted again.
                if gained, settings.repaintOnFocus { repaintAll = true }
                // Nobody watches a window without focus: its animations hold their frames.
                pictures.animations.pausedByFocus = !gained
                dirty = true  // the terminal's own animations (kitty) stop or play with the next frame
                continue
            }
            input.keysRead += 1
            // Event by event: `/abc` in one read opens the prompt, then types into it.
            var actions = model.editingFilter ? KeyMap.filterActions(for: [event]) : input.keys.action(for: event, at: now).map { [$0] } ?? []
            // Any key closes the help, even one without an action of its own.
            if model.showingHelp, actions.isEmpty, { if case .mouse = event { return false } else { return true } }() {
                actions = [.back]
            }
            handle(actions)
        }
        return true
    }

    /// Applies user actions to the model.
    func handle(_ actions: [GalleryAction]) {
        for action in actions {
            let outcome = model.perform(action)
            if outcome.suspend {
                screen.suspend()
                handle(.resized)  // the size may have changed while stopped; everything is repainted
                dirty = true
            }
            if let text = outcome.copy {
                screen.copyToClipboard(text)
                status.message = "copied the URL (OSC 52: the terminal decides whether to allow it)"
            }
            if let location = outcome.save {
                if let saveOriginal = settings.saveOriginal {
                    status.message = "saving \(location.fileName)…"
                    let inbox = inbox
                    saveOriginal(location) { line in inbox.post(.status { $0.message = line }) }
                } else {
                    status.message = "saving is not available here"
                }
            }
            if outcome.quit { quit() }
            if outcome.redraw { repaintAll = true }
            if outcome.changed { dirty = true }
            if !outcome.refresh.isEmpty { source.beginScreen() }
            for binding in outcome.refresh { bind(binding, options: .refresh) }
        }
    }

    /// Plays the animated images on screen: the full view's; with `--animate` each cell's, the
    /// selected one first.
    func followAnimations() {
        pictures.animations.pausedByUser = model.animationsPaused
        var playing: [(slot: SlotID, ring: AnimationPlayer.Ring)] = []
        if let fullView = model.fullView {
            if let slot = model.binding(showing: fullView)?.slot { playing = [(slot, .fullView)] }
        } else if model.animatesCells {
            let selection = model.selection
            playing = model.bindings.sorted { abs($0.index - selection) < abs($1.index - selection) }.map { ($0.slot, .cell) }
        }
        pictures.followAnimations(playing, now: Self.now())
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
