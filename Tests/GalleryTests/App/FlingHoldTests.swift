import Foundation
import TerminalGraphics
import Testing
@testable import Gallery

/// Flinging through screens (key repeat) holds new downloads until the keys pause, so the screens
/// flown past cost no requests; a single key's screen loads at once.
@Suite struct FlingHoldTests {
    func makeApp() throws -> (GalleryApp, RecordingSource) {
        let source = RecordingSource()
        let app = try GalleryApp(model: makeModel(count: 500), screen: InMemoryScreen(size: CellSize(columns: 160, rows: 37)),
                                 source: source, painter: LoggingPainter(source: source))
        return (app, source)
    }

    @Test func screenChangesCloserThanTheFlingIntervalHoldDownloadsUntilThePause() throws {
        let (app, source) = try makeApp()
        app.screenChangedByKey(at: 10.0)
        #expect(source.entries.isEmpty, "a single key's screen must load at once")
        app.screenChangedByKey(at: 10.04)
        #expect(source.entries == ["hold"])
        app.releaseDownloadsAfterFling(now: 10.1)
        #expect(source.entries == ["hold"])
        #expect(app.pacing.flingEndsIn(now: 10.1) == 90)
        app.screenChangedByKey(at: 10.12)  // the fling goes on: the hold lasts from the last key
        app.releaseDownloadsAfterFling(now: 10.25)
        #expect(source.entries == ["hold"])
        app.releaseDownloadsAfterFling(now: 10.28)
        #expect(source.entries == ["hold", "release"])
        #expect(app.pacing.flingEndsIn(now: 10.28) == nil)
        app.screenChangedByKey(at: 11.0)  // after a pause, the next key loads at once again
        #expect(source.entries == ["hold", "release"])
    }
}

/// The pacing's decisions by themselves (`LoadPacing`: no loop, no source).
@Suite struct LoadPacingTests {
    @Test func prefetchesWaitForAScreenCompleteForThePause() {
        var pacing = LoadPacing()
        do { let answer = pacing.pacePrefetches(now: 0, screenChanged: true, screenLoading: true); #expect(answer == true, "a new screen holds them") }
        do { let answer = pacing.pacePrefetches(now: 0.5, screenChanged: false, screenLoading: true); #expect(answer == nil, "still loading") }
        #expect(pacing.prefetchesReleaseIn(now: 0.5) == nil, "not complete yet: no release time")
        do { let answer = pacing.pacePrefetches(now: 1, screenChanged: false, screenLoading: false); #expect(answer == nil, "complete: the pause starts") }
        #expect(pacing.prefetchesReleaseIn(now: 1.25) == 750)
        do { let answer = pacing.pacePrefetches(now: 1.9, screenChanged: false, screenLoading: false); #expect(answer == nil) }
        do { let answer = pacing.pacePrefetches(now: 2, screenChanged: false, screenLoading: false); #expect(answer == false, "released after the pause") }
        #expect(!pacing.holdingPrefetches)
        do { let answer = pacing.pacePrefetches(now: 3, screenChanged: false, screenLoading: false); #expect(answer == nil) }
    }

    @Test func aFlingHoldsPrefetchesAsWellAsDownloads() {
        var pacing = LoadPacing()
        do { let answer = pacing.screenChangedByKey(at: 5); #expect(!answer) }
        do { let answer = pacing.screenChangedByKey(at: 5.05); #expect(answer) }
        do { let answer = pacing.pacePrefetches(now: 5.06, screenChanged: false, screenLoading: false); #expect(answer == true) }
        do { let answer = pacing.releasesDownloads(now: 5.2); #expect(answer) }
        do { let answer = pacing.pacePrefetches(now: 5.2, screenChanged: false, screenLoading: false); #expect(answer == nil) }
        do { let answer = pacing.pacePrefetches(now: 6.2, screenChanged: false, screenLoading: false); #expect(answer == false) }
    }
}
