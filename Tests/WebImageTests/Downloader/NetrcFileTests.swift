import Foundation
import Testing
import TestSupport
@testable import WebImage

/// `--user U --netrc` takes U's password from the netrc file (issue 21: an empty password was sent).
@Suite struct NetrcFileTests {
    @Test func theUsersPasswordForTheHostIsSent() async throws {
        let server = try await LoopbackServer.start()
        var locked = StubResponse.ok(DownloaderTestKit.fakeImageBytes(100), contentType: "image/fake")
        locked.basicAuth = ("alice", "s3cret")
        server.route("/locked", locked)
        let folder = try Fixtures.temporaryDirectory("netrc")
        defer { try? FileManager.default.removeItem(at: folder) }
        let netrc = folder.appendingPathComponent("netrc")
        try "machine other.example login alice password wrong\nmachine 127.0.0.1 login alice password s3cret\n".write(to: netrc, atomically: true, encoding: .utf8)
        var config = DownloaderTestKit.config()
        config.username = "alice"
        config.netrcFile = netrc.path
        let downloader = ImageDownloader(config: config)
        let result = try await downloader.image(for: server.url("/locked"))
        #expect(result.isFinished)
        await server.stop()
    }

    @Test func entriesMatchByHostAndLogin() {
        let text = "machine a.example login bob password b1\nmachine a.example login alice password a1\ndefault password d1\n"
        #expect(NetrcFile.password(forUser: "alice", host: "A.example", in: text) == "a1")
        #expect(NetrcFile.password(forUser: "alice", host: "z.example", in: text) == "d1")
        #expect(NetrcFile.password(forUser: "carol", host: "a.example", in: "machine a.example login bob password b1") == nil)
    }
}
