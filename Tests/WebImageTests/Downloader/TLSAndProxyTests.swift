import Foundation
import Locking
import Testing
import TestSupport
@testable import WebImage

/// HTTPS against a real nginx with certificates made at test time, HTTP/2 multiplexing, and a real
/// proxy (tinyproxy): what a user of a private server or a corporate network meets.
@Suite(.serialized, .enabled(if: NginxServer.available, "needs nginx and openssl (scripts/setup installs them)"))
struct TLSAndProxyTests {
    /// A directory of `count` fake images (`/0.img` …).
    static func images(_ count: Int) throws -> URL {
        let root = try Fixtures.temporaryDirectory("sdgallery-nginx-root")
        chmod(root.path, 0o755)
        for i in 0..<count { try DownloaderTestKit.fakeImageBytes(30_000, seed: UInt8(i)).write(to: root.appendingPathComponent("\(i).img")) }
        return root
    }

    static func download(_ urls: [URL], config: ImageDownloaderConfig, transfer: ImageRequest.TransferOptions = []) async -> [Result<DownloadResult, DownloadError>] {
        let downloader = ImageDownloader(config: config)
        let recorder = ResultRecorder()
        for url in urls { downloader.downloadImage(with: ImageRequest(url: url, transfer: transfer)) { recorder.record($0) } }
        _ = await recorder.wait(timeout: .seconds(60)) { values in
            values.filter { if case .success(let r) = $0 { return r.isFinished } else { return true } }.count >= urls.count
        }
        return recorder.all.filter { if case .success(let r) = $0 { return r.isFinished } else { return true } }
    }

    static func failureText(_ result: Result<DownloadResult, DownloadError>?) -> String? {
        if case .failure(let error)? = result { return error.summary }
        return nil
    }

    @Test func aSelfSignedServerIsRefusedWithTheReasonAndLoadsWithInsecure() async throws {
        let dir = try Fixtures.temporaryDirectory("sdgallery-certs")
        let certificates = try NginxServer.makeCertificates(in: dir, withAuthority: false)
        let server = try NginxServer.start(root: try Self.images(1), certificates: certificates)
        defer { server.stop() }
        let refused = await Self.download([server.url("/0.img")], config: DownloaderTestKit.config())
        #expect(Self.failureText(refused.first) == "TLS: self-signed certificate", "\(refused)")
        let insecure = await Self.download([server.url("/0.img")], config: DownloaderTestKit.config(), transfer: .allowInvalidSSLCertificates)
        if case .success? = insecure.first {} else { Issue.record("--insecure did not load: \(insecure)") }
    }

    @Test func aPrivateCAIsTrustedWithCacertOnly() async throws {
        let dir = try Fixtures.temporaryDirectory("sdgallery-certs")
        let certificates = try NginxServer.makeCertificates(in: dir, withAuthority: true)
        let server = try NginxServer.start(root: try Self.images(1), certificates: certificates)
        defer { server.stop() }
        let refused = await Self.download([server.url("/0.img")], config: DownloaderTestKit.config())
        #expect(Self.failureText(refused.first) == "TLS: unknown certificate authority", "\(refused)")
        var config = DownloaderTestKit.config()
        config.caCertificateFile = certificates.authority?.path
        let trusted = await Self.download([server.url("/0.img")], config: config)
        if case .success? = trusted.first {} else { Issue.record("--cacert did not load: \(trusted)") }
    }

    @Test func twentyFourImagesOverHTTP2ShareOneConnection() async throws {
        let dir = try Fixtures.temporaryDirectory("sdgallery-certs")
        let certificates = try NginxServer.makeCertificates(in: dir, withAuthority: true)
        let root = try Self.images(24)
        var config = DownloaderTestKit.config(maxConcurrent: 6)
        config.caCertificateFile = certificates.authority?.path
        for http2 in [true, false] {
            let server = try NginxServer.start(root: root, certificates: certificates, http2: http2)
            defer { server.stop() }
            let results = await Self.download((0..<24).map { server.url("/\($0).img") }, config: config)
            #expect(results.count == 24 && results.allSatisfy { if case .success = $0 { return true } else { return false } })
            let log = server.requests
            #expect(log.count == 24)
            let connections = Set(log.map(\.connection)).count
            if http2 {
                #expect(log.allSatisfy { $0.protocolName == "HTTP/2.0" }, "\(log.map(\.protocolName))")
                #expect(connections == 1, "HTTP/2 used \(connections) connections")
            } else {
                #expect(log.allSatisfy { $0.protocolName == "HTTP/1.1" })
                // Fast transfers can all reuse one keep-alive connection; never more than the slots.
                #expect(connections >= 1 && connections <= 6, "HTTP/1.1 used \(connections) connections: \(log.map { "\($0.connection):\($0.path)" })")
            }
        }
    }

    @Test(.enabled(if: TinyProxy.available, "needs tinyproxy"))
    func requestsGoThroughTheConfiguredProxy() async throws {
        let proxy = try TinyProxy.start()
        defer { proxy.stop() }
        let server = try await LoopbackServer.start()
        server.route("/via-proxy.img", .ok(DownloaderTestKit.fakeImageBytes(5000)))
        var config = DownloaderTestKit.config()
        config.proxy = proxy.url
        let results = await Self.download([server.url("/via-proxy.img")], config: config)
        if case .success? = results.first {} else { Issue.record("no image through the proxy: \(results)") }
        #expect(proxy.log.contains("/via-proxy.img"), "the proxy did not see the request: \(proxy.log.suffix(500))")
        await server.stop()
    }
}
