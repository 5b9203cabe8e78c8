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

    /// Quoted tokens (curl ≥ 7.84) may hold blanks and escapes; comments and macros are skipped.
    @Test func quotedPasswordsCommentsAndMacrosReadAsCurlReadsThem() {
        let text = """
        # machine a.example login alice password commented
        macdef init
        machine a.example login alice password inmacro

        machine a.example login "alice" password "two words \\"quoted\\" \\\\ end"
        machine b.example login alice password p#1
        """
        #expect(NetrcFile.password(forUser: "alice", host: "a.example", in: text) == "two words \"quoted\" \\ end")
        #expect(NetrcFile.password(forUser: "alice", host: "b.example", in: text) == "p#1")
        #expect(NetrcFile.tokens("machine x\r\nlogin \"a\\tb\"") == ["machine", "x", "login", "a\tb"])
    }
}
