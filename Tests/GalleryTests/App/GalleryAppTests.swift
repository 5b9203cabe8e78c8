import Foundation
import ImageCodecs
import Locking
import TerminalGraphics
import Testing
import TestSupport
@testable import Gallery

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

    @Test func aNewScreenShowingTheSameImagesInTheSameSlotsPaintsThem() async throws {
        // Items share 6 images (a list repeating URLs; the memory cache gives the same image). After
        // a PageDown, slot s shows item 18 + s: the same image at the same size as before. The
        // slot's old paint request outlived the cancel, so it was not painted again and the cells
        // kept their placeholders (kitty showed grey boxes, xterm black ones).
        let source = RecordingSource(sharedImages: 6)
        let harness = try AppHarness(count: 100, source: source)
        #expect(await harness.untilUI { $0.screen.frames.last?.placements.count == 18 }, "the first screen was not shown")
        harness.type(" ")
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 36 })
        let shown = await harness.untilUI { $0.screen.frames.last?.placements.count == 18 && $0.app.model.selection == 18 }
        #expect(shown, "the second screen's cells kept their placeholders")
        harness.type("q")
        #expect(await harness.finish())
        let frame = try #require(harness.screen.frames.last)
        #expect(frame.placements.count == 18, "\(frame.placements.count) of 18 cells show their image")
    }

    @Test func theNextScreenIsEncodedAheadAndShownInPageDownsFirstFrame() async throws {
        // Every item its own image, kept like the memory cache keeps prefetched ones.
        let source = RecordingSource(sharedImages: 1000)
        let harness = try AppHarness(count: 100, source: source)
        // While idle, the 18 visible pictures and the next screen's 18 are encoded.
        #expect(await harness.wait { $0.filter { $0 == "painted" }.count >= 36 }, "the next screen was not encoded ahead")
        let before = await harness.onUI { $0.screen.frames.count } ?? 0
        harness.type(" ")
        #expect(await harness.untilUI { $0.app.model.selection == 18 && $0.screen.frames.count > before })
        harness.type("q")
        #expect(await harness.finish())
        // Without encoding ahead, PageDown's frame showed 18 placeholders, and the images a frame later.
        #expect(harness.screen.frames[before].placements.count == 18, "\(harness.screen.frames[before].placements.count) of 18 pictures in PageDown's frame")
    }

    @Test func resizeAndStatusEventsReachTheModel() async throws {
        let harness = try AppHarness(count: 10)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        harness.screen.size = CellSize(columns: 40, rows: 12)
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
        #expect(harness.app.model.terminal == CellSize(columns: 40, rows: 12))
        #expect(harness.app.status.cacheHits == 7)
        #expect(harness.screen.lines.last?.contains("7 cached") == true)
    }

    /// The terminal's answer to a cell size asked again after a resize (a VTE font zoom) arrives as
    /// input: the grid is laid out again with the new cell size. Before, such a reply was dropped.
    @Test func aCellSizeReplyLaysTheGridOutAgain() async throws {
        let harness = try AppHarness(count: 10)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        let cells = CellSize(columns: 160, rows: 37)
        var caps = TerminalCapabilities(cellPixelSize: PixelSize(width: 9, height: 21))
        caps.cellSizeSource = .windowReport(window: PixelSize(width: 1440, height: 777), cells: cells)
        let profile = TerminalProfile(capabilities: caps, window: WindowSize(cells: cells))
        #expect(await harness.onUI { $0.screen.profile = profile; return true } == true)
        harness.type("\u{1B}[4;777;1760t")  // 1760×777 px over 160×37 cells: 11×21
        #expect(await harness.untilUI { $0.app.model.cellPixels == PixelSize(width: 11, height: 21) })
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func aPictureThePainterCannotPaintIsNotAskedForOnEveryFrame() async throws {
        // A nil paint cleared the paint in flight without recording anything: the next frame asked
        // again, forever (a busy repaint loop that never settled).
        let painter = FailingPainter()
        let harness = try AppHarness(count: 1, painter: painter)
        #expect(await harness.wait { $0.contains { $0.hasPrefix("bind") } })
        #expect(await harness.untilUI { painter.calls.withLock { $0 } > 0 && $0.app.isSettled })
        let calls = painter.calls.withLock { $0 }
        harness.type("j")
        #expect(await harness.untilUI { $0.app.keysRead == 1 && $0.app.isSettled })
        #expect(painter.calls.withLock { $0 } == calls, "asked again: \(painter.calls.withLock { $0 }) after \(calls)")
        harness.type("q")
        #expect(await harness.finish())
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

    @Test func aSlowEncoderNeverBlocksTheFullViewsAnimation() async throws {
        // The full view encoded each animation frame on the UI thread when it became due: with an
        // encoder that takes 30 s, Enter then q q waited for it.
        let painter = BlockedPainter()
        defer { painter.release.signal() }
        let harness = try AppHarness(count: 2, source: RecordingSource(animated: true), painter: painter)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 2 })
        harness.type("\r")
        #expect(await harness.untilUI { $0.app.model.fullView == 0 && $0.app.framesPresented > 2 })
        harness.type("q")
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func cachedCountsImagesNotHits() async throws {
        // The old loop added one per cache hit: every rebind (resize, paging back) grew it past the
        // number of images (233 of 73).
        let harness = try AppHarness(count: 10, source: RecordingSource(origin: "memory"))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 10 })
        harness.screen.size = CellSize(columns: 40, rows: 12)
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
        #expect(harness.app.framesPresented >= 3)
    }

    @Test func endOfInputQuits() async throws {
        let harness = try AppHarness(count: 3)
        harness.closeKeyboard()
        #expect(await harness.finish())
        #expect(harness.screen.closed)
    }

    /// A terminal reply whose ESC comes 200 ms before its rest (issue 30: read as Esc, which quit the
    /// gallery, and its letters as keys): while replies may come the ESC waits `replyEscapeTimeout`;
    /// after that window a lone ESC is Esc again.
    @Test func aReplysEscapeThatComesBeforeItsRestIsNotEsc() async throws {
        let harness = try AppHarness(count: 40)
        _ = await harness.onUI { h in
            h.app.escapes.replyEscapeTimeout = 500
            h.app.escapes.expectReplies(now: GalleryApp.now(), for: 5)
            return true
        }
        harness.type("\u{1B}")
        try await Task.sleep(for: .milliseconds(200))  // the terminal's delay: the case itself
        harness.type("]11;rgb:ffff/ffff/ffff\u{1B}\\")
        harness.type("l")
        #expect(await harness.untilUI { $0.app.model.selection == 1 }, "the next cell: nothing of the reply was a key")
        #expect(await harness.onUI { !$0.app.quitting } == true)
        _ = await harness.onUI { h in
            h.app.escapes.repliesExpectedUntil = 0
            return true
        }
        harness.type("\u{1B}")
        #expect(await harness.finish(), "a lone Esc quits the grid")
    }

    /// A reply that comes in pieces slower than the escape timeout (an OSC 11 reply whose body is
    /// all `q`): its string outlives the timeouts between them, none of it is a key.
    @Test func aSlowReplyIsNotKeysBetweenItsPieces() async throws {
        let harness = try AppHarness(count: 40)
        harness.type("\u{1B}]11;rgb:")
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(120))  // four escape timeouts between pieces: the case itself
            harness.type("qqqq/")
        }
        harness.type("\u{1B}\\l")
        #expect(await harness.untilUI { $0.app.model.selection == 1 }, "the next cell: nothing of the reply was a key")
        #expect(await harness.onUI { !$0.app.quitting } == true)
        harness.type("q")
        #expect(await harness.finish())
    }
}
