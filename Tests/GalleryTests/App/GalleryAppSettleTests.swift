import Foundation
import Testing
import ImageCodecs
import TerminalGraphics
import TestSupport
@testable import Gallery

/// The "settled" signal (`EventLog`, `SDGALLERY_EVENT_LOG`) the end-to-end tests wait on: written
/// only when nothing is pending, once per new frame or key.
@Suite struct GalleryAppSettleTests {
    /// The half-block painter behind a gate: every paint waits until `release` is signalled.
    struct GatedPainter: CellPainter {
        let release = DispatchSemaphore(value: 0)
        let inner = RendererPainter(renderer: HalfBlockRenderer())
        func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
            _ = release.wait(timeout: .now() + 30)
            release.signal()
            return inner.paint(image, cells: cells, cellPixels: cellPixels)
        }
    }

    static func log() throws -> (EventLog, SettleLog, URL) {
        let dir = try Fixtures.temporaryDirectory("settle-log")
        let settle = SettleLog(directory: dir.path)
        guard let log = EventLog(path: settle.path) else { throw CocoaError(.fileNoSuchFile) }
        return (log, settle, dir)
    }

    @Test func aPaintInFlightIsNotSettledAndItsResultSettles() async throws {
        let (eventLog, settle, dir) = try Self.log()
        defer { try? FileManager.default.removeItem(at: dir) }
        let painter = GatedPainter()
        defer { painter.release.signal() }
        let harness = try AppHarness(count: 4, painter: painter, eventLog: eventLog)
        // Every load is final and its frame written; the paints are held by the painter.
        #expect(await harness.untilUI { $0.app.status.pendingCells == 0 && $0.app.pictures.paintsInFlight > 0 && $0.app.settleReporter.framesWritten >= 1 })
        // Looked at on the UI thread, between two loop steps: with a paint out, no step may have settled.
        let early = await harness.onUI { _ in settle.settled.count }
        #expect(early == 0, "settled while a paint was out: \(settle.lines)")
        painter.release.signal()
        let settled = try await Blocking.run { settle.waitSettled(keys: 0, timeout: 15) }
        #expect(settled != nil, "\(settle.lines)")
        #expect(await harness.onUI { $0.app.pictures.paintsInFlight } == 0)
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func aKeyThatChangesNothingStillSettlesWithItsCount() async throws {
        let (eventLog, settle, dir) = try Self.log()
        defer { try? FileManager.default.removeItem(at: dir) }
        let harness = try AppHarness(count: 4, eventLog: eventLog)
        let first = try await Blocking.run { settle.waitSettled(keys: 0, timeout: 15) }
        #expect(first?.keys == 0)
        harness.type("#")  // no action
        let second = try await Blocking.run { settle.waitSettled(keys: 1, timeout: 15) }
        #expect(second?.keys == 1)
        #expect(second?.frame == first?.frame, "a key that changed nothing presented a frame")
        harness.type("l")  // the next item: a frame
        let third = try await Blocking.run { settle.waitSettled(keys: 2, after: first?.frame, timeout: 15) }
        #expect(third != nil, "\(settle.lines)")
        #expect(settle.lines.contains("frame \(third?.frame ?? -1) written"))
        harness.type("q")
        #expect(await harness.finish())
    }

    /// A prefetch still running (released, looking in the disk cache, not yet a download) keeps the
    /// screen unsettled; its end settles it. Before, the screen was called settled the moment the
    /// prefetches were released, and their downloads' "2 active" followed in the status bar.
    @Test func aRunningPrefetchIsNotSettledAndItsEndSettles() async throws {
        let (eventLog, settle, dir) = try Self.log()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = RecordingSource()
        source.running.withLock { $0 = true }
        let harness = try AppHarness(count: 100, source: source, eventLog: eventLog)
        #expect(await harness.wait { $0.contains("release prefetches") })
        // Looked at on the UI thread after the release: no loop step may have settled.
        #expect(await harness.onUI { $0.app.isSettled } == false)
        #expect(settle.settled.isEmpty, "settled with a prefetch running: \(settle.lines)")
        // The log says what it waits for.
        #expect(await harness.onUI { $0.app.pendingWork } == ["prefetches-running"])
        #expect(await harness.untilUI { _ in settle.lines.last == "waiting prefetches-running" }, "\(settle.lines)")
        source.running.withLock { $0 = false }
        _ = await harness.onUI { _ in true }  // the prefetch's end wakes the loop (here: this work)
        let settled = try await Blocking.run { settle.waitSettled(keys: 0, timeout: 15) }
        #expect(settled != nil, "\(settle.lines)")
        harness.type("q")
        #expect(await harness.finish())
    }
}

/// The small parts of the loop's timing, by themselves.
@Suite struct LoopTimingPartsTests {
    @Test func anEscapeWaitsLongerWhileRepliesMayCome() {
        var timing = EscapeTiming()
        timing.inputCame(at: 10)
        #expect(timing.wait(now: 10.01) == 30)
        #expect(!timing.waitIsOver(now: 10.02) && timing.waitIsOver(now: 10.031))
        timing.expectReplies(now: 10)
        #expect(timing.wait(now: 10.5) == 500, "a reply's ESC may come 200 ms before its rest")
        #expect(!timing.waitIsOver(now: 10.2))
        #expect(timing.wait(now: 11.01) == 30, "a second later, Esc is Esc again")
        #expect(timing.inputAge(now: 10.25) == 250)
    }

    @Test func aKeyIsTimedFromTheFirstUnshownKeyToTheFrameThatShowsIt() {
        var meter = KeyLatencyMeter()
        meter.shown(at: 1)
        #expect(meter.latencies.isEmpty, "no key waited")
        meter.keyRead(at: 2)
        meter.keyRead(at: 2.005)  // a second key before the frame: the clock runs from the first
        #expect(meter.isWaiting)
        meter.shown(at: 2.012)
        #expect(meter.latencies.count == 1 && abs(meter.latencies[0] - 12) < 0.001)
        #expect(!meter.isWaiting)
    }

    @Test func theSettleLinesComeOncePerNewFrameOrKey() throws {
        let dir = try Fixtures.temporaryDirectory("settle-reporter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("events.log").path
        var reporter = SettleReporter(log: EventLog(path: path))
        reporter.report(frames: 1, keys: 0, pending: ["paints"], outputWritten: false)
        reporter.report(frames: 1, keys: 0, pending: ["paints"], outputWritten: true)
        reporter.report(frames: 1, keys: 0, pending: ["paints"], outputWritten: true)
        reporter.report(frames: 1, keys: 0, pending: [], outputWritten: true)
        reporter.report(frames: 1, keys: 0, pending: [], outputWritten: true)
        reporter.report(frames: 1, keys: 1, pending: [], outputWritten: true)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["frame 1 written", "waiting paints", "settled frame=1 keys=0 loads=0 paints=0", "settled frame=1 keys=1 loads=0 paints=0"], "\(lines)")
    }
}

/// The frame schedule and the status bar's bookkeeping, by themselves.
@Suite struct FrameScheduleTests {
    @Test func aKeysFrameGoesAtOnceAndOthersArePaced() {
        var frames = FrameSchedule()
        #expect(frames.isOwed, "the first frame is owed")
        frames.presentedFrame()
        frames.paced(at: 10)
        #expect(!frames.isOwed && !frames.mayPresent(now: 20, forKey: true))
        frames.dirty = true
        #expect(!frames.mayPresent(now: 10.005, forKey: false), "a load's frame waits for its slot")
        #expect(frames.millisecondsToSlot(now: 10.005) == 12)
        #expect(frames.mayPresent(now: 10.005, forKey: true), "a key's frame goes at once")
        #expect(frames.mayPresent(now: 10.017, forKey: false))
        frames.presentedFrame()
        #expect(frames.presented == 2 && !frames.dirty && !frames.repaintAll)
    }

    @Test func anItemShownFromACacheCountsOnceHoweverOftenItIsRebound() {
        var bar = StatusBarState()
        bar.countCached(3, cached: true)
        bar.countCached(3, cached: true)
        bar.countCached(4, cached: true)
        #expect(bar.info.cacheHits == 2)
        bar.countCached(3, cached: false)
        #expect(bar.info.cacheHits == 1)
    }
}
