import Foundation
import ImageCodecs
import TerminalGraphics
import Testing
@testable import Gallery

/// Thumbnails that move (issue 32): with `--animate` the grid's cells play their animations, `a`
/// pauses them all, and paused the screen settles to what Ctrl-L paints.
@Suite struct GalleryAppAnimationTests {
    static let colours = ["255;0;0", "0;255;0", "0;0;255"]

    static func count(_ screen: InMemoryScreen, _ text: String) -> Int { shown(screen).components(separatedBy: text).count - 1 }

    static func shown(_ screen: InMemoryScreen) -> String { screen.written.map { String(decoding: $0, as: UTF8.self) }.joined() }

    /// Waits (15 s at most) until every frame colour was written.
    static func waitForEveryFrame(_ screen: InMemoryScreen) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline, !colours.allSatisfy({ shown(screen).contains("38;2;\($0);") }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        return colours.allSatisfy { shown(screen).contains("38;2;\($0);") }
    }

    static func model(count: Int, animates: Bool) -> GalleryModel {
        var model = makeModel(count: count)
        model.animatesCells = animates
        return model
    }

    @Test func gridCellsPlayTheirAnimations() async throws {
        let harness = try AppHarness(count: 2, source: RecordingSource(animated: true), model: Self.model(count: 2, animates: true))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 2 })
        #expect(try await Self.waitForEveryFrame(harness.screen), "every frame of the cells' animation is shown")
        #expect(await harness.onUI { $0.app.pictures.animations.players.count } == 2)
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func withoutAnimateTheGridShowsStills() async throws {
        let harness = try AppHarness(count: 2, source: RecordingSource(animated: true), model: Self.model(count: 2, animates: false))
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 2 })
        #expect(await harness.untilUI { $0.app.isSettled }, "nothing plays: the loop settles")
        #expect(await harness.onUI { $0.app.pictures.animations.players.isEmpty } == true)
        harness.type("q")
        #expect(await harness.finish())
        #expect(Self.shown(harness.screen).contains("38;2;255;0;0;"))
        #expect(!Self.shown(harness.screen).contains("38;2;0;255;0;"), "the second frame is never shown")
    }

    @Test func pausedTheScreenSettlesToWhatCtrlLPaints() async throws {
        let harness = try AppHarness(count: 3, source: RecordingSource(animated: true), model: Self.model(count: 3, animates: true))
        #expect(try await Self.waitForEveryFrame(harness.screen))
        #expect(await harness.onUI { $0.app.isSettled } == false, "playing: never settled")
        harness.type("a")
        #expect(await harness.untilUI { $0.app.model.animationsPaused && $0.app.isSettled })
        let paused = await harness.onUI { h in h.screen.frames.last.map { [$0.grid.hashValue, $0.placements.hashValue] } }
        let frameCount = await harness.onUI { $0.app.framesPresented } ?? 0
        harness.type("\u{0C}")
        #expect(await harness.untilUI { $0.app.framesPresented > frameCount && $0.app.isSettled })
        let redrawn = await harness.onUI { h in h.screen.frames.last.map { [$0.grid.hashValue, $0.placements.hashValue] } }
        #expect(paused != nil && paused == redrawn, "Ctrl-L paints the frames the paused cells show")
        harness.type("a")
        #expect(await harness.untilUI { !$0.app.isSettled }, "playing again")
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func cellsThatLeaveTheScreenStopPlaying() async throws {
        let harness = try AppHarness(count: 60, source: RecordingSource(animated: true), model: Self.model(count: 60, animates: true))
        #expect(try await Self.waitForEveryFrame(harness.screen))
        harness.type("G")
        #expect(await harness.untilUI { h in
            let bound = Set(h.app.model.bindings.map(\.slot))
            let playing = h.app.pictures.animations.players
            return h.app.model.selection == 59 && !playing.isEmpty && Set(playing.keys).isSubset(of: bound)
                && h.app.model.bindings.allSatisfy { $0.index >= 36 }
        }, "only the cells on the last screen play")
        harness.type("q")
        #expect(await harness.finish())
    }

    /// kitty plays the cells' animations itself (issue 32): each cell's picture is its whole
    /// animation, uploaded once (`a=f` for every further frame) and set playing (`a=a,s=3`); no
    /// player ticks and the loop settles, so nothing more is written while the terminal plays. `a`
    /// stops them on their first frame (`s=1,c=1`, what a repaint shows) and plays them again.
    @Test func kittyPlaysTheCellsAnimationsItself() async throws {
        let painter = RendererPainter(renderer: KittyRenderer())
        let harness = try AppHarness(count: 2, source: RecordingSource(animated: true), painter: painter,
                                     model: Self.model(count: 2, animates: true))
        #expect(await harness.untilUI { $0.app.isSettled && Self.count($0.screen, ",s=3,v=1,") == 2 }, "both animations uploaded and playing")
        #expect(Self.count(harness.screen, "a=f,") == 2 * 2, "every further frame sent once per animation")
        #expect(await harness.onUI { h in h.app.pictures.animations.players.isEmpty && h.app.pictures.terminalPlays.count == 2 } == true)
        #expect(await harness.onUI { $0.app.pictures.animations.millisecondsToNextFrame(now: GalleryApp.now()) } == Optional<Int32>.none,
                "no frame timer: the loop sleeps while kitty plays")
        let written = await harness.onUI { $0.screen.written.reduce(0) { $0 + $1.count } } ?? 0
        harness.type("a")
        #expect(await harness.untilUI { $0.app.isSettled && Self.count($0.screen, ",s=1,c=1,") == 2 }, "paused: each stands on its first frame")
        let paused = await harness.onUI { $0.screen.written.reduce(0) { $0 + $1.count } } ?? 0
        #expect(paused - written < 200, "pausing sends two commands, not the frames again (\(paused - written) B)")
        harness.type("a")
        #expect(await harness.untilUI { $0.app.isSettled && Self.count($0.screen, ",s=3,v=1,") == 4 }, "playing again")
        harness.type("q")
        #expect(await harness.finish())
        #expect(Self.count(harness.screen, "a=f,") == 2 * 2, "no frame sent twice")
    }
}
