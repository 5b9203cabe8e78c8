import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// Decode work one expensive image cannot monopolise (issue 21): operations are not pinned behind
/// each other's decodes.
@Suite struct DecodeQueuesTests {
    @Test("a decode that never ends delays no other image's result")
    func slowDecodeDelaysNoOtherImage() async throws {
        let server = try await LoopbackServer.start()
        server.route("/slow", .ok(DownloaderTestKit.fakeImageBytes(4096, seed: 99), contentType: "image/fake"))
        for i in 0..<12 { server.route("/f\(i)", .ok(DownloaderTestKit.fakeImageBytes(4096, seed: UInt8(i)), contentType: "image/fake")) }
        let release = DispatchSemaphore(value: 0)
        let slowStarted = CallbackRecorder<Bool>()
        var config = DownloaderTestKit.config(maxConcurrent: 16)
        config.decoding = ImageDecoding(
            decode: { data, options in
                if data.starts(with: DownloaderTestKit.fakeImageBytes(4096, seed: 99).prefix(64)) {
                    slowStarted.record(true)
                    _ = release.wait(timeout: .now() + 30)  // the scan bomb: busy until released
                }
                return try DownloaderTestKit.fakeDecoding.decode(data, options)
            },
            makeIncrementalDecoder: DownloaderTestKit.fakeDecoding.makeIncrementalDecoder)
        let downloader = ImageDownloader(config: config)
        let slow = ResultRecorder()
        downloader.downloadImage(with: server.url("/slow")) { slow.record($0) }
        #expect(await slowStarted.wait(count: 1))
        let fast = ResultRecorder()
        for i in 0..<12 { downloader.downloadImage(with: server.url("/f\(i)")) { fast.record($0) } }
        #expect(await fast.wait(count: 12, timeout: .seconds(10)), "\(fast.all.count) of 12 images done while one decode ran")
        #expect(slow.all.isEmpty)
        release.signal()
        #expect(await slow.wait(count: 1))
        await server.stop()
    }
}
