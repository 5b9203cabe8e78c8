import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// A JPEG XL load for a small cell stops once the file's DC is in (`JXLSession.sufficientImage`,
/// final at 1/8): the transfer is cut there, at 1 MB/s as a throttled link sends it. The decode lane
/// sees the DC (no byte reader finds its end on the network thread, as `NeededBytes` does for JPEG) and
/// stops the transfer at libjxl's event, before the flush and scaling make the image
/// (`hasSufficientBytes`): the file's DC ends at 10.6 % of it (decoder level, 4 KB steps); a debug build
/// cut this transfer at 12–13 % (40–58 % when the stop waited for the image: its flush and scaling).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjxl"), "needs cjxl (libjxl-tools)"))
struct JXLEarlyStopDownloadTests {
    /// `photo()`, made once for both cases (it takes over a second: ImageMagick's plasma, then cjxl).
    static let madePhoto = Result { try photo() }

    /// A 1600×1200 photo-like JPEG XL (cjxl -d 1), made at test time.
    static func photo() throws -> Data {
        let directory = try Fixtures.temporaryDirectory("jxl-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ppm = directory.appendingPathComponent("p.ppm").path, jxl = directory.appendingPathComponent("p.jxl").path
        for (tool, arguments) in [("/usr/bin/convert", ["-size", "1600x1200", "-seed", "4", "plasma:fractal", "-attenuate", "0.4", "+noise", "Gaussian", "-depth", "8", ppm]),
                                  ("/usr/bin/cjxl", ["-d", "1", ppm, jxl])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "\(tool) failed")
        }
        return try Data(contentsOf: URL(fileURLWithPath: jxl))
    }

    /// A cell's load with `delivery`: its final result.
    static func cell(_ kit: ManagerTestKit, _ path: String, _ size: PixelSize, delivery: ImageRequest.DeliveryOptions) async -> ImageLoadEvent? {
        let results = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(url: kit.server.url(path), targetSize: size, delivery: delivery)) { results.recordLoad($0) }
        _ = await results.wait { $0.contains { $0.isTerminal } }
        _ = await kit.server.waitUntil { $0.filter { $0.path == path }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        return results.all.first { $0.isTerminal }
    }

    /// A gallery cell (partial images wanted) and `--print` (`.stopWhenSufficient` alone: before,
    /// NeededBytes's "all", which reads JPEG markers only, turned that one into a one-shot decode of
    /// the whole body).
    @Test(arguments: [[ImageRequest.DeliveryOptions.progressiveLoad, .stopWhenSufficient], [.stopWhenSufficient]])
    func aCellsLoadStopsAtTheDC(delivery: [ImageRequest.DeliveryOptions]) async throws {
        let body = try Self.madePhoto.get()
        let kit = try await ManagerTestKit.make()
        var stub = StubResponse.ok(body, contentType: "image/jxl")
        stub.etag = "\"j1\""
        // Under a sanitizer the decode lane is 3–15× slower while the server is not (TSan's lane had
        // flushed the DC only after 1 MB/s sent the whole body, when the stop waited for the flush):
        // the link is slower there (the file's DC is still in within the first second).
        stub.bytesPerSecond = Sanitizers.thread || Sanitizers.address ? 50_000 : 1_000_000
        kit.server.route("/p.jxl", stub)
        let result = try #require(await Self.cell(kit, "/p.jxl", PixelSize(width: 160, height: 96), delivery: ImageRequest.DeliveryOptions(delivery)))
        let image = try #require(result.image)
        #expect(image.size == PixelSize(width: 128, height: 96))
        #expect(image.earlyTier == .scale(denominator: 8))
        let requests = kit.server.requests(to: "/p.jxl")
        let sent = requests.map(\.bytesSent).reduce(0, +)
        print("JPEG XL cell at \(stub.bytesPerSecond ?? 0) B/s: \(sent) of \(body.count) bytes sent (\(sent * 100 / body.count)%): \(NeededBytesDownloadTests.log(requests))")
        // A third: the DC's 10.6 % and the lane's step (12–14 % here, also with three busy loops on the
        // two cores beside it), with room for a loaded machine.
        #expect(sent * 3 <= body.count)
        await kit.tearDown()
    }
}
