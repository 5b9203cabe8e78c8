import ImageCodecs
import Locking
import TerminalGraphics

/// A `Screen` that keeps what it is shown, for tests: every frame and the image bytes written around it.
public final class InMemoryScreen: Screen {
    /// The size reported (change it, then the app's resize path reads it through `updateSize`).
    public var size: CellSize
    /// The cell pixel size reported.
    public var cellPixels: PixelSize
    /// Every frame presented, in order.
    public private(set) var frames: [Frame] = []
    /// The image bytes written for each frame (what is cleared, then the placements). Readable from
    /// any thread while the frame loop runs (tests wait on it).
    public var written: [[UInt8]] { log.withLock { $0 } }
    private let log = Locked<[[UInt8]]>([])
    /// Whether `close()` was called.
    public private(set) var closed = false
    /// The production screen's rules (`CursesScreen` presents through the same type).
    private var presenter = FramePresenter(strategy: InMemoryScreen.defaultStrategy)
    /// How the terminal scrolls, erases and covers (as `CursesScreen`'s `profile.strategy`).
    public var strategy: TerminalStrategy {
        get { presenter.strategy }
        set { presenter.strategy = newValue }
    }
    /// Text leaves the images beside it alone (as kitty and text renderers), nothing else.
    public static var defaultStrategy: TerminalStrategy {
        var strategy = TerminalStrategy()
        strategy.textOverwritesOnlyItsCells = true
        return strategy
    }

    /// Creates a screen of `size`.
    public init(size: CellSize, cellPixels: PixelSize = PixelSize(width: 8, height: 16)) {
        self.size = size
        self.cellPixels = cellPixels
    }

    /// Records the frame and the image bytes `FramePresenter` would write around its text.
    public func present(_ frame: Frame, repaintAll: Bool) {
        let shown = presenter.present(frame, repaintAll: repaintAll, terminal: size)
        frames.append(frame)
        let bytes = shown.uploads + shown.beforeText + shown.afterText
        log.withLock { $0.append(bytes) }
        terminal.withLock { $0.backlog += $0.backlogPerFrame }
    }

    /// Returns `size`.
    public func updateSize() -> CellSize { size }

    /// The terminal profile whose cell-size replies this screen learns from, as `CursesScreen` does
    /// (nil: `cellPixels` stays as set).
    public var profile: TerminalProfile?

    /// Takes a cell-size reply into `profile`; true when the cell size changed.
    public func learnCellSize(_ replies: ProbeReplies) -> Bool {
        guard var profile else { return false }
        let changed = profile.learn(replies)
        self.profile = profile
        if changed { cellPixels = profile.cellPixelSize }
        return changed
    }

    /// A terminal that is behind, simulated: bytes it has not taken yet, what each `flushOutput()`
    /// takes, what each frame adds. Tests change it while the loop runs (hence the lock).
    public struct SlowTerminal: Sendable {
        public var backlog = 0
        public var drainPerFlush = Int.max
        public var backlogPerFrame = 0
    }
    /// The simulated terminal (keeps up by default).
    public let terminal = Locked(SlowTerminal())
    public var outputBacklog: Int { terminal.withLock { $0.backlog } }
    /// No descriptor: the backlog is simulated.
    public var outputDescriptor: Int32? { nil }
    /// Takes `drainPerFlush` bytes off the backlog.
    public func flushOutput() { terminal.withLock { $0.backlog = max(0, $0.backlog - $0.drainPerFlush) } }

    /// Events the next `takeEvents()` returns (tests queue resizes and quits here).
    public var queuedEvents: [ScreenEvent] = []

    /// Returns and clears `queuedEvents`.
    public func takeEvents() -> [ScreenEvent] {
        defer { queuedEvents.removeAll() }
        return queuedEvents
    }

    /// How many times `suspend()` was called.
    public private(set) var suspensions = 0

    /// Counts the suspension; the writer forgets what is on screen, as after a real one.
    public func suspend() {
        suspensions += 1
        _ = presenter.closingBytes()
    }

    /// What `copyToClipboard` was asked to copy, in order.
    public private(set) var copied: [String] = []

    /// Records the text.
    public func copyToClipboard(_ text: String) { copied.append(text) }

    /// Marks the screen closed.
    public func close() {
        if !closed { closingBytes = presenter.closingBytes() }
        closed = true
    }

    /// What `close()` wrote (kitty: delete every placement and image).
    public private(set) var closingBytes: [UInt8] = []

    /// The text of the last frame, one string per row.
    public var lines: [String] {
        guard let grid = frames.last?.grid else { return [] }
        return (0..<grid.size.rows).map { grid.line($0) }
    }
}
