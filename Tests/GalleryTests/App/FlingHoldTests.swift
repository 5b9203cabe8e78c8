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
        #expect(app.flingEndsIn(now: 10.1) == 90)
        app.screenChangedByKey(at: 10.12)  // the fling goes on: the hold lasts from the last key
        app.releaseDownloadsAfterFling(now: 10.25)
        #expect(source.entries == ["hold"])
        app.releaseDownloadsAfterFling(now: 10.28)
        #expect(source.entries == ["hold", "release"])
        #expect(app.flingEndsIn(now: 10.28) == nil)
        app.screenChangedByKey(at: 11.0)  // after a pause, the next key loads at once again
        #expect(source.entries == ["hold", "release"])
    }
}
