import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery

/// A source that records calls and answers each bind at once with a solid image whose red channel is
/// the item index (so the test can see which image a cell shows).
final class RecordingSource: CellImageSource, Sendable {
    let log = Locked<[String]>([])
    let failIndex: Int?
    let animated: Bool
    let origin: String

    init(failIndex: Int? = nil, animated: Bool = false, origin: String = "file") {
        self.failIndex = failIndex
        self.animated = animated
        self.origin = origin
    }

    /// A 16×16 animation: red, green, blue frames of 30 ms, looping forever.
    static func animation() -> Image {
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]
        let frames = colours.map { c in ImageFrame(pixels: Array((0..<256).map { _ in c }.joined()), duration: 0.03) }
        return Image(width: 16, height: 16, pixels: frames[0].pixels, frames: frames, loopCount: 0)
    }

    func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: CellLoadOptions, onUpdate: @escaping (CellImageUpdate) -> Void) {
        let index = item.entry.line - 1
        log.withLock { $0.append("bind \(index)\(options.contains(.refresh) ? " refresh" : "")") }
        if index == failIndex { onUpdate(.failed("404 Not Found")); return }
        if animated {
            onUpdate(.final(Self.animation(), ImageDetails(pixelSize: PixelSize(width: 16, height: 16), format: "GIF")))
            return
        }
        onUpdate(.progress(received: 10, expected: 100))
        let pixels = [UInt8](repeating: 0, count: 16 * 16 * 4).enumerated().map { $0.offset % 4 == 0 ? UInt8(truncatingIfNeeded: index) : ($0.offset % 4 == 3 ? 255 : 0) }
        onUpdate(.final(Image(width: 16, height: 16, pixels: pixels), ImageDetails(pixelSize: PixelSize(width: 16, height: 16), byteCount: 999, format: "PNG", origin: origin)))
    }
    func cancel(slot: SlotID) { log.withLock { $0.append("cancel \(slot.rawValue)") } }
    func prefetch(_ request: PrefetchRequest, item: GalleryItem) { log.withLock { $0.append("prefetch \(request.index)") } }
    func cancelPrefetch(_ request: PrefetchRequest) { log.withLock { $0.append("unprefetch \(request.index)") } }
    func cancelAll() { log.withLock { $0.append("cancelAll") } }
    var entries: [String] { log.withLock { $0 } }
}

/// Runs a GalleryApp on its own thread with a pipe as its keyboard.
/// The half-block painter, logging each finished picture to the source's log (paints run off the UI thread).
struct LoggingPainter: CellPainter {
    let inner = RendererPainter(renderer: HalfBlockRenderer())
    let source: RecordingSource
    func paint(_ image: Image, cells: TermSize, cellPixels: PixelSize) -> PaintedImage? {
        defer { source.log.withLock { $0.append("painted") } }
        return inner.paint(image, cells: cells, cellPixels: cellPixels)
    }
}

/// A painter that blocks until `release` is signalled (a very slow encoder).
struct BlockedPainter: CellPainter {
    let release = DispatchSemaphore(value: 0)
    func paint(_ image: Image, cells: TermSize, cellPixels: PixelSize) -> PaintedImage? {
        _ = release.wait(timeout: .now() + 30)
        release.signal()
        return nil
    }
}

final class AppHarness: @unchecked Sendable {  // `app` is touched by the test only after `done` is signalled.
    let app: GalleryApp
    let screen: InMemoryScreen
    let source: RecordingSource
    let keyboard: (read: Int32, write: Int32)
    let done = DispatchSemaphore(value: 0)

    init(count: Int, size: TermSize = TermSize(columns: 160, rows: 37), source: RecordingSource = RecordingSource(),
         painter: CellPainter? = nil) throws {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        keyboard = (fds[0], fds[1])
        screen = InMemoryScreen(size: size)
        self.source = source
        let model = makeModel(count: count, columns: size.columns, rows: size.rows)
        app = try GalleryApp(model: model, screen: screen, source: source, painter: painter ?? LoggingPainter(source: source), inputDescriptor: keyboard.read)
        let thread = Thread { [self] in
            app.run()
            done.signal()
        }
        thread.start()
    }

    private var writeOpen = true

    deinit {
        close(keyboard.read)
        closeKeyboard()
    }

    /// Closes the keyboard's write end once (a second close could hit a descriptor another test reuses).
    func closeKeyboard() {
        if writeOpen { close(keyboard.write) }
        writeOpen = false
    }

    func type(_ text: String) { _ = text.utf8CString.withUnsafeBufferPointer { write(keyboard.write, $0.baseAddress, $0.count - 1) } }

    /// Waits (up to 15 s: the machine is shared) until `condition` holds on the source log, sleeping asynchronously.
    func wait(_ condition: ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if condition(source.entries) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return condition(source.entries)  // once more: a busy machine can make the sleep outlast the deadline
    }

    /// Waits (up to 15 s) for the app's loop to end, off the cooperative pool.
    func finish() async -> Bool {
        let done = self.done
        return (try? await Blocking.run { done.wait(timeout: .now() + 15) == .success }) ?? false
    }
}

@Suite struct GalleryAppTests {
    @Test func bindsTheFirstScreenShowsImagesAndQuitsOnQ() async throws {
        let harness = try AppHarness(count: 40, source: RecordingSource(failIndex: 3))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 18 })
        #expect(await harness.wait { $0.contains("prefetch 18") })
        // Pictures are encoded off the UI thread: the 17 images are painted before the last frame.
        #expect(await harness.wait { $0.filter { $0 == "painted" }.count >= 17 })
        harness.type("q")
        #expect(await harness.finish())
        let app = harness.app
        #expect(harness.screen.closed)
        #expect(harness.source.entries.last == "cancelAll")
        // The last frame shows 17 images (one failed) and the error text.
        let last = try #require(harness.screen.frames.last)
        #expect(last.placements.count == 17)
        #expect(harness.screen.lines.joined().contains("✗ 404 Not Found"))
        #expect(app.model.items[0].state == .final)
        #expect(app.status.failures == 1)
        #expect(app.model.items[0].details == "16×16 · 999 B")
        // Item 5's image is red 5: its placement carries that colour.
        let fifth = try #require(app.model.layout.placement(of: 5, scrollRow: 0))
        let placement = try #require(last.placements.first { fifth.image.covers($0.rect) })
        #expect(String(decoding: placement.image.rows[0], as: UTF8.self).hasPrefix("\u{1B}[38;2;5;0;0;"))
        // The written bytes of the frames together place every image once.
        let written = harness.screen.written.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(written.contains("\u{1B}7"))
    }

    /// Load order like a browser: the selected cell is bound first, then its neighbours in reading
    /// order (the old code bound last-cell-first, giving the free download slots to the far cells).
    @Test func bindsTheSelectedCellFirstThenReadingOrder() async throws {
        let harness = try AppHarness(count: 40)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 18 })
        let binds = harness.source.entries.filter { $0.hasPrefix("bind") }
        #expect(binds == (0..<18).map { "bind \($0)" })
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func pagingCancelsTheOldScreenAndBindsTheNextOneKeyByKey() async throws {
        let harness = try AppHarness(count: 100)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 18 })
        harness.type(" ")
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 36 })
        harness.type("r")
        #expect(await harness.wait { $0.contains("bind 18 refresh") })
        harness.type("G")
        #expect(await harness.wait { $0.contains("bind 99") })
        harness.type("\u{1B}")  // a lone Esc (after the escape timeout) goes back = quits the grid
        #expect(await harness.finish())
        let log = harness.source.entries
        #expect(log.filter { $0.hasPrefix("cancel ") }.count >= 36)
        #expect(log.contains("unprefetch 36") || log.contains("prefetch 36"))
        #expect(harness.app.model.selection == 99)
        #expect(harness.app.keyLatencies.count >= 4)
        #expect(harness.app.keyLatencies.allSatisfy { $0 < 500 })
    }

    @Test func pagingQuicklyThrough500ItemsCancelsEveryScreenLeftBehind() async throws {
        let harness = try AppHarness(count: 500)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 18 })
        harness.type(String(repeating: " ", count: 25))  // 25 screens in one burst
        #expect(await harness.wait { $0.contains("bind 450") })
        harness.type("q")
        #expect(await harness.finish())
        let log = harness.source.entries
        let model = harness.app.model
        // The final screen is bound, every slot bound before it was cancelled first, and no slot ever
        // held two loads at once.
        #expect(model.visibleIndices == 450..<468)
        #expect(Set(model.bindings.map(\.index)) == Set(450..<468))
        let slotsBound = log.filter { $0.hasPrefix("bind ") }.count
        #expect(log.filter { $0.hasPrefix("cancel ") }.count == slotsBound - 18)
        // Paging in one burst binds only the screens it stopped on, not the ones it passed.
        #expect(slotsBound <= 18 * 3)
    }

    @Test func resizeAndStatusEventsReachTheModel() async throws {
        let harness = try AppHarness(count: 10)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        harness.screen.size = TermSize(columns: 40, rows: 12)
        harness.screen.queuedEvents.append(.resized)
        harness.app.inbox.post(.status { $0.cacheHits = 6 })
        #expect(await harness.wait { $0.filter { $0.hasPrefix("cancel ") }.count >= 1 })
        let inbox = harness.app.inbox
        harness.app.inbox.post(.work {
            // Runs on the UI thread, the owner of the inbox; the quit is queued after the status
            // change, so it cannot overtake it. Off the UI thread nothing quits and finish() fails.
            guard inbox.isOwnerThread else { return }
            inbox.post(.status { $0.cacheHits += 1 })
            inbox.post(.quit)
        })
        #expect(await harness.finish())
        #expect(harness.app.model.terminal == TermSize(columns: 40, rows: 12))
        #expect(harness.app.status.cacheHits == 7)
        #expect(harness.screen.lines.last?.contains("7 cached") == true)
    }

    @Test func aSlowEncoderNeverBlocksTheKeys() async throws {
        // The old loop encoded inside present() on the UI thread: with an encoder that takes 30 s,
        // `q` waited for it.
        let painter = BlockedPainter()
        defer { painter.release.signal() }
        let harness = try AppHarness(count: 10, painter: painter)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        harness.type("q")
        #expect(await harness.finish())
        #expect(harness.screen.frames.last?.placements.isEmpty == true)
    }

    @Test func cachedCountsImagesNotHits() async throws {
        // The old loop added one per cache hit: every rebind (resize, paging back) grew it past the
        // number of images (233 of 73).
        let harness = try AppHarness(count: 10, source: RecordingSource(origin: "memory"))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        harness.screen.size = TermSize(columns: 40, rows: 12)
        harness.screen.queuedEvents.append(.resized)
        harness.app.inbox.post(.work {})
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count > 10 })
        harness.type("q")
        #expect(await harness.finish())
        #expect(harness.app.status.cacheHits == 10)
        #expect(harness.screen.lines.last?.contains("10 cached") == true)
    }

    @Test func fullViewPlaysAnimations() async throws {
        let harness = try AppHarness(count: 2, source: RecordingSource(animated: true))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 2 })
        harness.type("\r")
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 3 })
        // Every frame colour is shown in the full view (waited for: a loaded machine may be slow).
        let colours = ["255;0;0", "0;255;0", "0;0;255"]
        let screen = harness.screen
        let deadline = ContinuousClock.now + .seconds(15)
        func shown() -> String { screen.written.map { String(decoding: $0, as: UTF8.self) }.joined() }
        while ContinuousClock.now < deadline, !colours.allSatisfy({ shown().contains("38;2;\($0);") }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        harness.type("q")
        harness.type("q")
        #expect(await harness.finish())
        let written = shown()
        for colour in colours { #expect(written.contains("38;2;\(colour);"), "frame \(colour) never shown") }
        #expect(harness.app.framesPresented >= 6)
    }

    @Test func endOfInputQuits() async throws {
        let harness = try AppHarness(count: 3)
        harness.closeKeyboard()
        #expect(await harness.finish())
        #expect(harness.screen.closed)
    }
}
