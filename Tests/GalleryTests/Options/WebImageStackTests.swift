import Foundation
import Testing
import TestSupport
@testable import Gallery

@Suite struct WebImageStackTests {
    @Test func demoImagesKeepTheirCacheKeysAcrossRuns() async throws {
        var options = GalleryOptions()
        options.demo = true
        options.cacheDirectory = try Fixtures.temporaryDirectory("stack").path
        let stack = WebImageStack(options: options)
        // Starting the demo waits on a semaphore for a task that itself needs the cooperative pool:
        // on a pool thread that wait held one of the two threads for seconds, starving every test
        // that uses the loopback server. It runs on a thread of its own.
        let demo = options
        let list = try #require(try await Blocking.run { stack.components.demoList(demo) })
        let url = try #require(list.entries.first?.location.url)
        // The port is random per run; the key must not contain it.
        #expect(stack.manager.cacheKey(for: url) == "sdgallery-demo:" + url.path)
        #expect(!stack.manager.cacheKey(for: url).contains(String(url.port ?? 0)))
        let other = try #require(URL(string: "https://example.com/a.png"))
        #expect(stack.manager.cacheKey(for: other) == "https://example.com/a.png")
    }
}
