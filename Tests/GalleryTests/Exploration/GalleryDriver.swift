import Foundation
import ImageCodecs
import TerminalGraphics
import TerminalModel
@testable import Gallery

/// Drives a real `GalleryApp` step by step on the calling thread, deterministically: each step runs
/// `GalleryApp.step`, the body of `run()`'s loop (keys read from a pipe through the app's own decoder
/// and key map, screen events, the inbox, reconcile, bind, present, encode ahead), without the wait
/// in `poll()` and with no 60 Hz pacing. Loads move only when a step says (`ScriptedSource`); paints
/// finish when a `.paint` step waits for the paint queue. The screen is a `ModelScreen` over a
/// `TerminalModel` of the given kind.
final class GalleryDriver {
    let app: GalleryApp
    let screen: ModelScreen
    let source = ScriptedSource()
    let kind: TerminalKind
    private let keyboard: (read: Int32, write: Int32)

    /// The profile a terminal of `kind` gets; its painter (as in `GalleryRunner`) has a small encoded
    /// output cache so that kitty uploads are evicted and freed while exploring.
    static func profile(for kind: TerminalKind) -> TerminalProfile {
        var caps: TerminalCapabilities
        switch kind {
        case .xterm, .mlterm:
            caps = TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor,
                                        terminalName: kind == .xterm ? "XTerm(379)" : "mlterm(3.9.3)", backgroundColor: .black)
        case .kitty:
            caps = TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor, terminalName: "kitty(0.26.5)", backgroundColor: .black)
        case .tmux:
            caps = TerminalCapabilities(colorDepth: .truecolor, terminalName: "tmux 3.3a", inTmux: true, backgroundColor: .black)
        case .tmux35:
            caps = TerminalCapabilities(graphics: .sixel, colorDepth: .truecolor, terminalName: "tmux 3.5a", inTmux: true, backgroundColor: .black)
            caps.tmuxVersion = TmuxVersion("3.5a")
            caps.tmuxSixel = true
        case .tmuxKitty:
            caps = TerminalCapabilities(graphics: .kitty, colorDepth: .truecolor, terminalName: "tmux 3.5a", inTmux: true, backgroundColor: .black)
            caps.tmuxVersion = TmuxVersion("3.5a")
            caps.tmuxPassthrough = true
            caps.kittyPlaceholders = true
        }
        return TerminalProfile(capabilities: caps)
    }

    init(kind: TerminalKind, count: Int = 60, size: CellSize = CellSize(columns: 80, rows: 24)) throws {
        self.kind = kind
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        keyboard = (fds[0], fds[1])
        let profile = Self.profile(for: kind)
        let painter = RendererPainter(profile: profile, cache: EncodedOutputCache(costLimit: 12 << 10))
        screen = ModelScreen(kind: kind, size: size, cellPixels: PixelSize(width: 6, height: 12), strategy: profile.strategy)
        let items = (0..<count).map { GalleryItem(entry: URLListEntry(line: $0 + 1, location: .remote(URL(string: "https://e.example/\($0).png")!))) }
        var model = GalleryModel(items: items, terminal: size, cellPixels: screen.cellPixels, columnsOverride: 6,
                                 imageLimit: profile.strategy.imageLimit)
        model.animatesCells = true  // every fourth item plays (`ScriptedSource.makeImage`)
        app = try GalleryApp(model: model, screen: screen, source: source, painter: painter, inputDescriptor: keyboard.read)
        // A step that timed out stands for the escape timeout having passed.
        app.escapes.escapeTimeout = 0
        app.escapes.replyEscapeTimeout = 0
        app.composer.quietImageRows = !profile.strategy.textOverwritesOnlyItsCells  // as the runner does
        app.frames.interval = 0  // every owed frame is presented at its step
        app.start()
    }

    deinit {
        close(keyboard.read)
        close(keyboard.write)
    }

    /// Whether `bytes` would end the program here (q or Esc in the grid): such keys are skipped.
    private func wouldQuit(_ bytes: [UInt8]) -> Bool {
        (bytes == [UInt8(ascii: "q")] || bytes == [0x1B]) && app.model.fullView == nil && !app.model.showingHelp && !app.model.editingFilter
    }

    /// Runs one step.
    func run(_ step: ExplorationStep) {
        switch step {
        case .key(_, let bytes):
            guard !wouldQuit(bytes) else { return }
            _ = bytes.withUnsafeBufferPointer { write(keyboard.write, $0.baseAddress, $0.count) }
            iterate(input: true)
        case .load(let pick, let what):
            source.advance(pick, what)
            iterate(input: false)
        case .paint:
            Self.waitForBackgroundWork()
            iterate(input: false)
        case .resize(let size):
            screen.nextSize = size
            screen.queuedEvents.append(.resized)
            iterate(input: false)
        case .settle:
            settle()
        }
    }

    /// One iteration of the frame loop (`GalleryApp.step`); after a key, a second one as after the
    /// escape timeout when the decoder holds an incomplete sequence (a lone Esc).
    func iterate(input: Bool) {
        app.step(input: input, timedOut: false)
        if input, app.input.hasPending { app.step(input: false, timedOut: true) }
    }

    /// Waits for the paint queue and the filter queue to finish what they were given.
    static func waitForBackgroundWork() {
        GalleryApp.filterQueue.sync {}
        CellPictures.queue.sync {}
    }

    /// Lets everything finish: every load completes, every paint is taken and presented, until a
    /// round presents nothing new.
    func settle() {
        for _ in 0..<200 {
            source.finishAll()
            Self.waitForBackgroundWork()
            let before = app.framesPresented
            iterate(input: false)
            if app.framesPresented == before && source.loads.isEmpty { return }
        }
    }

    /// Ctrl-L, then settles: the full repaint the settled screen must equal.
    func repaintAll() {
        run(.key("Ctrl-L", [0x0C]))
        settle()
    }
}
