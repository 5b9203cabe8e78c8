import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery
import WebImage

/// A source that records calls and answers each bind at once with a solid image whose red channel is
/// the item index (so the test can see which image a cell shows).
final class RecordingSource: CellImageSource, Sendable {
    let log = Locked<[String]>([])
    let failIndex: Int?
    let animated: Bool
    let origin: String
    /// When set, items share this many images (item i shows image i % n), each made once and
    /// given again (same id) on every bind, as the memory cache does for a list with repeated URLs.
    let sharedImages: Int?
    let cached = Locked<[Int: Image]>([:])
    /// What `prefetchesRunning` answers (a test sets it).
    let running = Locked(false)

    init(failIndex: Int? = nil, animated: Bool = false, origin: String = "file", sharedImages: Int? = nil) {
        self.failIndex = failIndex
        self.animated = animated
        self.origin = origin
        self.sharedImages = sharedImages
    }

    /// A 16×16 animation: red, green, blue frames of 30 ms, looping forever.
    static func animation() -> Image {
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]
        let frames = colours.map { c in ImageFrame(pixels: Array((0..<256).map { _ in c }.joined()), duration: 0.03) }
        return Image(width: 16, height: 16, pixels: frames[0].pixels, frames: frames, loopCount: 0)
    }

    func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: BindOptions, onUpdate: @escaping (CellImageUpdate) -> Void) {
        let index = item.entry.line - 1
        log.withLock { $0.append("bind \(index)\(options.contains(.refresh) ? " refresh" : "")") }
        if index == failIndex { onUpdate(.failed("404 Not Found")); return }
        if animated {
            onUpdate(.final(Self.animation(), ImageDetails(pixelSize: PixelSize(width: 16, height: 16), format: "GIF")))
            return
        }
        onUpdate(.progress(received: 10, expected: 100))
        onUpdate(.final(image(for: index), ImageDetails(pixelSize: PixelSize(width: 16, height: 16), byteCount: 999, format: "PNG", origin: origin)))
    }
    /// Item `index`'s image: a solid 16×16 whose red channel is its key; kept (same id each time)
    /// with `sharedImages`.
    func image(for index: Int) -> Image {
        let key = sharedImages.map { index % $0 } ?? index
        let pixels = [UInt8](repeating: 0, count: 16 * 16 * 4).enumerated().map { $0.offset % 4 == 0 ? UInt8(truncatingIfNeeded: key) : ($0.offset % 4 == 3 ? 255 : 0) }
        let made = Image(width: 16, height: 16, pixels: pixels)
        guard sharedImages != nil else { return made }
        return cached.withLock { images in
            if images[key] == nil { images[key] = made }
            return images[key] ?? made
        }
    }
    func cancel(slot: SlotID) { log.withLock { $0.append("cancel \(slot.rawValue)") } }
    func prefetch(_ request: PrefetchRequest, item: GalleryItem) {
        log.withLock { $0.append("prefetch \(request.index)") }
        if sharedImages != nil { _ = image(for: request.index) }  // into the "memory cache"
    }
    func cancelPrefetch(_ request: PrefetchRequest) { log.withLock { $0.append("unprefetch \(request.index)") } }
    func cancelAll() { log.withLock { $0.append("cancelAll") } }
    func holdDownloads(_ hold: Bool) { log.withLock { $0.append(hold ? "hold" : "release") } }
    func holdPrefetches(_ hold: Bool) { log.withLock { $0.append(hold ? "hold prefetches" : "release prefetches") } }
    var prefetchesRunning: Bool { running.withLock { $0 } }
    /// With `sharedImages`, the memory cache: the images made so far (by binds; a prefetch makes its item's).
    func cachedImage(for item: GalleryItem, targetSize: PixelSize) -> Image? {
        guard let shared = sharedImages else { return nil }
        return cached.withLock { $0[(item.entry.line - 1) % shared] }
    }
    var entries: [String] { log.withLock { $0 } }
}

/// Runs a GalleryApp on its own thread with a pipe as its keyboard.
/// The half-block painter, logging each finished picture to the source's log (paints run off the UI thread).
struct LoggingPainter: CellPainter {
    let inner = RendererPainter(renderer: HalfBlockRenderer())
    let source: RecordingSource
    func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        defer { source.log.withLock { $0.append("painted") } }
        return inner.paint(image, cells: cells, cellPixels: cellPixels)
    }
    func painted(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        inner.painted(image, cells: cells, cellPixels: cellPixels)
    }
}

/// A painter that cannot paint (returns nil), counting how often it was asked.
struct FailingPainter: CellPainter {
    let calls = Locked(0)
    func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        calls.withLock { $0 += 1 }
        return nil
    }
}

/// A painter that blocks until `release` is signalled (a very slow encoder).
struct BlockedPainter: CellPainter {
    let release = DispatchSemaphore(value: 0)
    func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
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

    init(count: Int, size: CellSize = CellSize(columns: 160, rows: 37), source: RecordingSource = RecordingSource(),
         painter: CellPainter? = nil, scrolls: Bool = false, scrollsBack: Bool? = nil, model: GalleryModel? = nil,
         eventLog: EventLog? = nil) throws {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        keyboard = (fds[0], fds[1])
        screen = InMemoryScreen(size: size)
        screen.strategy.scrollsUpWithText = scrolls
        screen.strategy.scrollsDownWithText = scrollsBack ?? scrolls
        self.source = source
        let model = model ?? makeModel(count: count, columns: size.columns, rows: size.rows)
        app = try GalleryApp(model: model, screen: screen, source: source, painter: painter ?? LoggingPainter(source: source), inputDescriptor: keyboard.read)
        app.escapes.replyEscapeTimeout = app.escapes.escapeTimeout  // an Esc typed at once is Esc after 30 ms
        app.eventLog = eventLog
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

    /// Runs `body` on the UI thread (through the inbox) and returns its result.
    func onUI<T: Sendable>(_ body: @escaping @Sendable (AppHarness) -> T) async -> T? {
        let result = Locked<T?>(nil)
        let harness = self
        app.inbox.post(.work { result.withLock { $0 = body(harness) } })
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let value = result.withLock({ $0 }) { return value }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return result.withLock { $0 }
    }

    /// Waits (up to 15 s) until `condition` holds on the UI thread.
    func untilUI(_ condition: @escaping @Sendable (AppHarness) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if await onUI(condition) == true { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Waits (up to 15 s) for the app's loop to end, off the cooperative pool.
    func finish() async -> Bool {
        let done = self.done
        return (try? await Blocking.run { done.wait(timeout: .now() + 15) == .success }) ?? false
    }
}
