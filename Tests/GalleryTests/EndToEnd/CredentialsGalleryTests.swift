import Foundation
import Testing
import TestSupport
@testable import Gallery

/// Basic-auth passwords off the command line: from SDGALLERY_PASSWORD or a netrc file, to the server;
/// `--password` still works but warns; `--user` with no password anywhere is a usage error.
@Suite(.endToEnd, EndToEnd.needs())
struct CredentialsGalleryTests {
    func serve() async throws -> (LoopbackServer, URL) {
        let server = try await LoopbackServer.start()
        server.route("/private.png", .ok(TestPNG.solid(width: 8, height: 8, rgba: (9, 9, 9, 255)), contentType: "image/png"))
        let dir = try Fixtures.temporaryDirectory("gallery-credentials")
        try Data("\(server.url("/private.png").absoluteString)\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        return (server, dir)
    }

    func printSheet(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        var env = ChildProcess.testEnvironment
        for (key, value) in environment { env[key] = value }
        let environment = env
        return try await Blocking.run { try ChildProcess.run(EndToEnd.binary.path, ["--print", "--no-disk-cache"] + arguments, timeout: 20, environment: environment) }
    }

    @Test func aPasswordFromTheEnvironmentReachesTheServer() async throws {
        let (server, dir) = try await serve()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await printSheet(["--user", "alice", dir.appendingPathComponent("list.txt").path], environment: ["SDGALLERY_PASSWORD": "s3cret"])
        #expect(result.status == 0, "\(result.err)")
        #expect(!result.err.contains("warning"))
        let auth = server.requests.first { $0.path == "/private.png" }?.header("Authorization")
        #expect(auth == "Basic " + Data("alice:s3cret".utf8).base64EncodedString())
        await server.stop()
    }

    @Test func aNetrcFileGivesTheCredentials() async throws {
        let (server, dir) = try await serve()
        defer { try? FileManager.default.removeItem(at: dir) }
        let netrc = dir.appendingPathComponent("netrc")
        try Data("machine 127.0.0.1 login bob password hunter2\n".utf8).write(to: netrc)
        let result = try await printSheet(["--netrc-file", netrc.path, dir.appendingPathComponent("list.txt").path])
        #expect(result.status == 0, "\(result.err)")
        let auth = server.requests.first { $0.path == "/private.png" }?.header("Authorization")
        #expect(auth == "Basic " + Data("bob:hunter2".utf8).base64EncodedString())
        await server.stop()
    }

    @Test func passwordOnTheCommandLineWarnsAndAUserWithoutOneIsAnError() async throws {
        let (server, dir) = try await serve()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt").path
        let visible = try await printSheet(["--user", "carol", "--password", "pw", list])
        #expect(visible.status == 0)
        #expect(visible.err.contains("warning: --password is visible"))
        // No terminal to ask on (the test has none), no variable, no netrc.
        let none = try await printSheet(["--user", "carol", list])
        #expect(none.status == 2)
        #expect(none.err.contains("--user needs a password"))
        await server.stop()
    }

    @Test func resolutionOrder() {
        let env = ["SDGALLERY_PASSWORD": "from-env"]
        #expect(Credentials.resolve(user: "u", password: "flag", environment: env, netrc: true, prompt: nil).password == "flag")
        #expect(Credentials.resolve(user: "u", password: nil, environment: env, netrc: true, prompt: nil).password == "from-env")
        #expect(Credentials.resolve(user: "u", password: nil, environment: [:], netrc: true, prompt: { _ in "typed" }).password == nil)
        #expect(Credentials.resolve(user: "u", password: nil, environment: [:], netrc: false, prompt: { _ in "typed" }).password == "typed")
        #expect(Credentials.resolve(user: nil, password: "x", environment: [:], netrc: false, prompt: nil).error != nil)
        #expect(Credentials.resolve(user: nil, password: nil, environment: [:], netrc: false, prompt: nil) == .init(password: nil))
    }
}
