import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// A load for a small cell stops at the last byte its image needs (`NeededBytes`, read from the markers
/// as the bytes arrive): one request, no `Range`; the server's log shows the transfer stopped within a
/// few of its 4 KB chunks of that byte (throttled, as links are). An EXIF thumbnail with every pixel
/// the cell shows is the cell's image (oriented); a baseline file without one is read whole; a
/// server that ignores `Range` does not matter any more.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
struct NeededBytesDownloadTests {
    /// Bytes the stub server may send past the cut: the chunks in flight when the client closes.
    static let slack = 4 * 4096

    /// A 1600×1200 camera-like JPEG (about 1 MB) whose 160×120 EXIF thumbnail is red on its stored
    /// left half and blue on its right half (the main image is green-grey noise).
    static func cameraJPEG(orientation: UInt16, thumbnailWidth: Int = 160) async throws -> Data {
        let main = try await SufficientDownloadTests.jpeg(width: 1600, height: 1200, flags: "") { _, _, noise in [60 &+ noise, 160 &+ noise, 60 &+ noise] }
        let thumbnail = try await SufficientDownloadTests.jpeg(width: thumbnailWidth, height: 120, flags: "") { x, _, _ in
            x < thumbnailWidth / 2 ? [230, 20, 20] : [20, 20, 230]
        }
        return ExifJPEG.with(main, thumbnail: thumbnail, orientation: orientation)
    }

    static func serve(_ kit: ManagerTestKit, _ path: String, _ body: Data, ranges: Bool = true, rate: Int? = 1_000_000) {
        var stub = StubResponse.ok(body, contentType: "image/jpeg")
        stub.etag = "\"e1\""
        stub.supportsRange = ranges
        stub.bytesPerSecond = rate
        kit.server.route(path, stub)
    }

    /// A cell's load: its final result (partial renders may come first).
    static func cell(_ kit: ManagerTestKit, _ path: String, _ size: PixelSize) async -> ImageLoadEvent? {
        let results = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(url: kit.server.url(path), targetSize: size,
                                                  delivery: [.progressiveLoad, .stopWhenSufficient])) { results.recordLoad($0) }
        _ = await results.wait { $0.contains { $0.isTerminal } }
        _ = await kit.server.waitUntil { $0.filter { $0.path == path }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        return results.all.first { $0.isTerminal }
    }

    static func log(_ requests: [RecordedRequest]) -> String {
        requests.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" }.joined(separator: "; ")
    }

    @Test func aCameraJPEGCellStopsAfterItsHeadersAndShowsItsOrientedEXIFThumbnail() async throws {
        let body = try await Self.cameraJPEG(orientation: 6)  // rotate 90° clockwise: stored left → top
        let headers = try #require(JPEGScans.starts(body).last) + 14
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/cam.jpg", body)
        let result = try #require(await Self.cell(kit, "/cam.jpg", PixelSize(width: 60, height: 80)))
        let image = try #require(result.image)
        #expect(result.isTerminal && image.size == PixelSize(width: 60, height: 80))
        #expect(image.sourceSize == PixelSize(width: 1200, height: 1600))
        #expect(image.earlyTier == .exifThumbnail)
        let top = image.pixel(x: 30, y: 10), bottom = image.pixel(x: 30, y: 70)
        #expect(top.r > 180 && top.b < 80, "top \(top)")
        #expect(bottom.b > 180 && bottom.r < 80, "bottom \(bottom)")
        let requests = kit.server.requests(to: "/cam.jpg")
        print("camera \(body.count) B, headers end at \(headers): \(Self.log(requests))")
        #expect(requests.count == 1 && requests.first?.header("Range") == nil)
        #expect((requests.first?.bytesSent ?? .max) <= headers + Self.slack)
        await kit.tearDown()
    }

    @Test func aBaselineJPEGWhoseThumbnailIsTooSmallIsReadWhole() async throws {
        let body = try await Self.cameraJPEG(orientation: 1)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/big.jpg", body, rate: nil)
        // 400×300 is larger than the 160×120 thumbnail: the whole file is decoded.
        let result = try #require(await Self.cell(kit, "/big.jpg", PixelSize(width: 400, height: 300)))
        #expect(result.isTerminal && result.image?.size == PixelSize(width: 400, height: 300))
        #expect(result.data == body)
        let requests = kit.server.requests(to: "/big.jpg")
        print("no thumbnail use: \(Self.log(requests))")
        #expect(requests.map(\.status) == [200] && requests.first?.bytesSent == body.count)
        // Another aspect: the thumbnail is not used either.
        let other = try await Self.cameraJPEG(orientation: 1, thumbnailWidth: 120)
        Self.serve(kit, "/aspect.jpg", other, rate: nil)
        let square = try #require(await Self.cell(kit, "/aspect.jpg", PixelSize(width: 40, height: 30)))
        #expect(square.data == other && square.image.map { $0.pixel(x: 20, y: 15).g > 120 } == true)
        await kit.tearDown()
    }

    @Test func aServerIgnoringRangeStillWorks() async throws {
        let body = try await Self.cameraJPEG(orientation: 1)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/norange.jpg", body, ranges: false)
        let small = try #require(await Self.cell(kit, "/norange.jpg", PixelSize(width: 80, height: 60)))
        #expect(small.isTerminal && small.image?.size == PixelSize(width: 80, height: 60))
        #expect(kit.server.requests(to: "/norange.jpg").map(\.status) == [200])
        Self.serve(kit, "/norange2.jpg", body, ranges: false, rate: nil)
        let large = try #require(await Self.cell(kit, "/norange2.jpg", PixelSize(width: 400, height: 300)))
        #expect(large.data == body && large.image?.size == PixelSize(width: 400, height: 300))
        #expect(kit.server.requests(to: "/norange2.jpg").map(\.status) == [200])
        await kit.tearDown()
    }

    /// A progressive JPEG cell stops at the header of the scan after the ones its scale needs: the DC
    /// scan for 1/8, scan 4 for 1/4 (libjpeg's default script), in one request; the bytes are kept.
    @Test(arguments: [(PixelSize(width: 200, height: 150), 1), (PixelSize(width: 300, height: 225), 4)])
    func aProgressiveJPEGStopsAtTheHeaderAfterItsScans(size: PixelSize, scans: Int) async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1600, height: 1200)
        let end = JPEGScans.starts(body)[scans] + 14
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/prog.jpg", body)
        let result = try #require(await Self.cell(kit, "/prog.jpg", size))
        #expect(result.isTerminal && result.image?.size == size)
        let requests = kit.server.requests(to: "/prog.jpg")
        let sent = requests.map(\.bytesSent).reduce(0, +)
        print("progressive \(body.count) B for \(size.width)×\(size.height), needed bytes end at \(end) (\(100 * end / body.count)%): \(Self.log(requests))")
        #expect(requests.count == 1 && requests.first?.header("Range") == nil)
        #expect(sent >= end && sent <= end + Self.slack, "sent \(sent), needed \(end)")
        #expect(kit.manager.downloader.partials.urls == [kit.server.url("/prog.jpg")])
        await kit.tearDown()
    }

    /// When less than 64 KB would be left after the needed bytes, the body is read to the end (an
    /// HTTP/1.1 connection stays open for the next request) and decoded whole: the image has no early
    /// tier, and nothing is kept for a resume. A picture of rings and stripes, whose last scans are
    /// small: at 1/2 its scans end about 59 KB before the file does.
    @Test func aSmallRestIsReadToTheEndAndDecodedWhole() async throws {
        let body = try await SufficientDownloadTests.jpeg(width: 1024, height: 768, flags: "-progressive") { x, y, noise in
            let dx = Double(x - 512), dy = Double(y - 384)
            let ring = UInt8(127 + 120 * sin(sqrt(dx * dx + dy * dy) / 9))
            let stripe: UInt8 = (x / 8) % 2 == 0 ? 40 : 0
            return [ring &+ noise / 8, UInt8(truncatingIfNeeded: y / 3) &+ stripe, UInt8(truncatingIfNeeded: x / 4) &+ noise / 8]
        }
        let cell = PixelSize(width: 400, height: 300)  // more than 1/4 of 1024×768, at most 1/2: scan 6
        var needed = NeededBytes(box: cell)
        needed.append(body)
        guard case .prefix(let count, _) = needed.verdict else { Issue.record("no prefix: \(needed.verdict)"); return }
        try #require(body.count - count < ImageDownloadOperation.smallestCutRest, "rest \(body.count - count) B")
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/rest.jpg", body)
        let result = try #require(await Self.cell(kit, "/rest.jpg", cell))
        #expect(result.isTerminal && result.image?.size == cell)
        #expect(result.image?.earlyTier == nil, "decoded from the whole file, not stopped after scan 6")
        #expect(result.data == body)
        let requests = kit.server.requests(to: "/rest.jpg")
        print("rest of \(body.count - count) B after the needed \(count): \(Self.log(requests))")
        #expect(requests.count == 1 && requests.first?.bytesSent == body.count)
        #expect(kit.manager.downloader.partials.urls.isEmpty)
        await kit.tearDown()
    }

    /// However fast the link (unthrottled loopback: the server may push the whole body into the
    /// socket's buffers before the stop), the cell's image is right and one request is sent.
    @Test func anUnthrottledProgressiveJPEGStillStopsInOneRequest() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 1600, height: 1200)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/fast.jpg", body, rate: nil)
        let result = try #require(await Self.cell(kit, "/fast.jpg", PixelSize(width: 200, height: 150)))
        #expect(result.isTerminal && result.image?.size == PixelSize(width: 200, height: 150) && result.image?.earlyTier == .scale(denominator: 8))
        let requests = kit.server.requests(to: "/fast.jpg")
        print("unthrottled progressive \(body.count) B: \(Self.log(requests)); received \(kit.manager.downloader.statistics.snapshot.bytesReceived) B")
        #expect(requests.count == 1)
        await kit.tearDown()
    }
}
