import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

@Suite struct ImageManagerFreshnessTests {
    /// `Cache-Control: no-store` is shown but never written to disk; an ordinary response is.
    @Test func noStoreNeverReachesTheDisk() async throws {
        let kit = try await ManagerTestKit.make()
        var stub = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: (1, 2, 3, 255)), contentType: "image/png")
        stub.headers["Cache-Control"] = "private, no-store"
        kit.server.route("/secret.png", stub)
        kit.serve("/plain.png", color: (4, 5, 6, 255))

        let secret = await kit.manager.results(kit.server.url("/secret.png"))
        #expect(secret.first?.image?.firstPixel == [1, 2, 3, 255])
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 0)

        _ = await kit.manager.results(kit.server.url("/plain.png"))
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.diskCount == 1)
        await kit.tearDown()
    }
}
