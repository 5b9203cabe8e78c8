import Foundation
import Testing
import TestSupport

/// The real binary against a real nginx over TLS and through a real proxy, in `--print` mode (the
/// gallery uses the same manager options: one function builds them for both).
@Suite(.endToEnd, EndToEnd.needs(.nginx), .serialized)
struct HTTPSGalleryTests {
    static func serve(withAuthority: Bool) throws -> (NginxServer, NginxServer.Certificates, URL) {
        let certs = try NginxServer.makeCertificates(in: try Fixtures.temporaryDirectory("sdgallery-certs"), withAuthority: withAuthority)
        let root = try Fixtures.temporaryDirectory("sdgallery-https-root")
        chmod(root.path, 0o755)
        try TestPNG.solid(width: 40, height: 30, rgba: (10, 200, 30, 255)).write(to: root.appendingPathComponent("green.png"))
        let server = try NginxServer.start(root: root, certificates: certs)
        let list = root.appendingPathComponent("list.txt")
        try Data("\(server.url("/green.png").absoluteString) Green\n".utf8).write(to: list)
        return (server, certs, list)
    }

    static func print(_ list: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        try ChildProcess.run(EndToEnd.binary.path, ["--print", "--colors", "truecolor", "--columns", "1"] + arguments + [list.path], timeout: 60,
                             environment: ChildProcess.testEnvironment.merging(environment) { $1 })
    }

    static let green = "2;10;200;30m"

    @Test func selfSignedIsRefusedWithItsReasonAndInsecureShowsTheImage() async throws {
        try await Blocking.run {
            let (server, _, list) = try Self.serve(withAuthority: false)
            defer { server.stop() }
            let refused = try Self.print(list, [])
            #expect(!refused.out.contains(Self.green))
            #expect((refused.out + refused.err).contains("TLS: self-signed certificate"), "\(refused.out) \(refused.err)")
            let insecure = try Self.print(list, ["--insecure", "--refresh"])
            #expect(insecure.out.contains(Self.green), "--insecure in --print: \(insecure.out) \(insecure.err)")
        }
    }

    @Test func aPrivateCAWithCacertShowsTheImage() async throws {
        try await Blocking.run {
            let (server, certs, list) = try Self.serve(withAuthority: true)
            defer { server.stop() }
            let trusted = try Self.print(list, ["--cacert", certs.authority?.path ?? ""])
            #expect(trusted.out.contains(Self.green), "\(trusted.out) \(trusted.err)")
            let missing = try Self.print(list, ["--cacert", "/nonexistent/ca.pem"])
            #expect(missing.status == 64 || missing.status == 2 || missing.err.contains("--cacert"), "\(missing.status) \(missing.err)")
        }
    }

    @Test(.enabled(if: TinyProxy.available, "needs tinyproxy"))
    func theEnvironmentsProxyAndProxyOptionAreUsed() async throws {
        let server = try await LoopbackServer.start()
        server.route("/p.png", .ok(TestPNG.solid(width: 40, height: 30, rgba: (10, 200, 30, 255)), contentType: "image/png"))
        let dir = try Fixtures.temporaryDirectory("sdgallery-proxy-list")
        let list = dir.appendingPathComponent("list.txt")
        try Data("\(server.url("/p.png").absoluteString) P\n".utf8).write(to: list)
        try await Blocking.run {
            let proxy = try TinyProxy.start()
            defer { proxy.stop() }
            let viaEnvironment = try Self.print(list, ["--no-disk-cache"], environment: ["http_proxy": proxy.url])
            #expect(viaEnvironment.out.contains(Self.green), "\(viaEnvironment.err)")
            #expect(proxy.log.components(separatedBy: "/p.png").count - 1 == 1, "http_proxy not used: \(proxy.log.suffix(400))")
            let viaOption = try Self.print(list, ["--no-disk-cache", "--proxy", proxy.url])
            #expect(viaOption.out.contains(Self.green), "\(viaOption.err)")
            #expect(proxy.log.components(separatedBy: "/p.png").count - 1 == 2, "--proxy not used: \(proxy.log.suffix(400))")
        }
        await server.stop()
    }
}
