import Foundation
import Locking
import Testing
import TestSupport
@testable import Gallery

/// A terminal that reads slower than frames are made (xterm taking a 2 MB sixel page): the loop
/// never waits on it, frames that only follow loads wait until it has caught up, and a key's frame
/// waits only when it is far behind — then the keys coalesce into one frame, and each key's latency
/// runs until that frame.
@Suite struct SlowTerminalTests {
    @Test func keysWaitForATerminalFarBehindAndCoalesceIntoOneFrame() async throws {
        let harness = try AppHarness(count: 50)
        #expect(await harness.wait { $0.filter { $0 == "painted" }.count >= 10 })
        harness.screen.terminal.withLock { $0.backlog = 10 << 20; $0.drainPerFlush = 0 }
        let before = await harness.onUI { $0.screen.written.count } ?? -1
        harness.type("l")
        #expect(await harness.untilUI { $0.app.model.selection == 1 })
        let secondKey = Date()
        harness.type("l")
        #expect(await harness.untilUI { $0.app.model.selection == 2 })
        #expect(await harness.onUI { $0.screen.written.count } == before, "a frame went to a terminal 10 MB behind")
        let caughtUp = Date()
        harness.screen.terminal.withLock { $0.drainPerFlush = .max }
        #expect(await harness.untilUI { $0.screen.written.count > before })
        harness.type("q")
        #expect(await harness.finish())
        // The two keys share the frame presented after the catch-up: one latency for both (then q's),
        // and it covers the time the terminal was behind.
        let latencies = harness.app.keyLatencies
        try #require(latencies.count == 2, "\(latencies)")
        #expect(latencies[0] >= caughtUp.timeIntervalSince(secondKey) * 1000, "\(latencies)")
    }

    @Test func aTerminalSlightlyBehindGetsKeyFramesAtOnceButNoLoadFrames() async throws {
        let harness = try AppHarness(count: 50)
        #expect(await harness.wait { $0.filter { $0 == "painted" }.count >= 10 })
        harness.screen.terminal.withLock { $0.backlog = 100_000; $0.drainPerFlush = 0 }
        let before = await harness.onUI { $0.screen.written.count } ?? -1
        // A status change (what loads do) is owed a frame, but the terminal still holds bytes.
        harness.app.inbox.post(.status { $0.message = "loads changed something" })
        #expect(await harness.untilUI { $0.app.status.message == "loads changed something" })
        #expect(await harness.onUI { $0.screen.written.count } == before, "a load frame went to a terminal that is behind")
        harness.type("l")
        #expect(await harness.untilUI { $0.screen.written.count == before + 1 }, "the key's frame did not go out")
        harness.type("q")
        #expect(await harness.finish())
    }
}
