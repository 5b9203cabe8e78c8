import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

/// Local files load with bounded concurrency, like network loads (issue 21: sixteen small files that
/// inflate to large canvases ran all at once on an unbounded queue, 3 GB on 2 cores).
@Suite struct LocalFileLoaderTests {
    @Test func loadsRunAFewAtATime() async throws {
        let folder = try Fixtures.temporaryDirectory("local-loads")
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = Locked((now: 0, most: 0))
        let loader = LocalFileLoader { _, _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            Thread.sleep(forTimeInterval: 0.4)
            running.withLock { $0.now -= 1 }
            return Image(width: 1, height: 1, pixels: [0, 0, 0, 255])
        }
        let done = CallbackRecorder<Bool>()
        for i in 0..<16 {
            let file = folder.appendingPathComponent("\(i).gif")
            try Data("GIF89a".utf8).write(to: file)
            loader.load(file, options: DecodeOptions()) { done.record((try? $0.get()) != nil) }
        }
        #expect(await done.wait(count: 16, timeout: .seconds(60)))
        #expect(done.all.allSatisfy { $0 })
        let most = running.withLock { $0.most }
        #expect(most <= LocalFileLoader.maxConcurrentLoads, "\(most) loads at once")
    }
}
