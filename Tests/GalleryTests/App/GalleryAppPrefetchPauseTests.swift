import Foundation
import Testing
@testable import Gallery

/// Prefetches wait for a pause: the screen complete, and no key moving it, for
/// `LoadPacing.prefetchPause`. A fling stops on each screen only until it is complete and a moment
/// more; a prefetch of the next screen started at once was cut by the next burst, its bytes fetched
/// for nothing (the most of `sdgallery-bench scroll`'s waste once no image was fetched twice).
@Suite struct GalleryAppPrefetchPauseTests {
    @Test func prefetchesStartOnceTheCompleteScreenHasStoodForThePause() async throws {
        let harness = try AppHarness(count: 100)
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 18 })
        let bound = ContinuousClock.now  // the recording source completes every bind at once
        #expect(await harness.wait { $0.contains("release prefetches") })
        let waited = ContinuousClock.now - bound
        #expect(waited >= .seconds(LoadPacing.prefetchPause * 0.8), "released after \(waited)")
        let log = harness.source.entries
        #expect(log.firstIndex(of: "hold prefetches").map { $0 < log.firstIndex(of: "release prefetches")! } == true)
        harness.type("q")
        #expect(await harness.finish())
    }

    @Test func keysMovingTheScreenHoldPrefetchesAgain() async throws {
        let harness = try AppHarness(count: 100)
        #expect(await harness.wait { $0.contains("release prefetches") })
        harness.type(" ")
        #expect(await harness.wait { $0.filter { $0.hasPrefix("bind") }.count == 36 })
        #expect(await harness.wait { $0.filter { $0 == "release prefetches" }.count == 2 })
        let log = harness.source.entries
        let secondHold = try #require(log.lastIndex(of: "hold prefetches"))
        #expect(log.firstIndex(of: "release prefetches")! < secondHold)
        #expect(secondHold < log.lastIndex(of: "release prefetches")!)
        harness.type("q")
        #expect(await harness.finish())
    }
}
