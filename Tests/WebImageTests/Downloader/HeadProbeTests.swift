import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// A JPEG for a small cell: `Range: bytes=0-65535` first; an EXIF thumbnail with every pixel the
/// cell shows is the cell's image (oriented), else the same operation continues from 65536 with
/// `If-Range`; a server that ignores `Range` still works. Loopback server, bytes per request.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
struct HeadProbeTests {
    /// `main` with an APP1 Exif segment after SOI: IFD0 with `orientation`, IFD1 with `thumbnail`.
    static func withExif(_ main: Data, thumbnail: Data, orientation: UInt16) -> Data {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        var tiff: [UInt8] = [0x49, 0x49, 42, 0] + le32(8)
        tiff += le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(Int(orientation)) + [0, 0] + le32(26)  // IFD0 → IFD1 at 26
        tiff += le16(2) + le16(0x0201) + le16(4) + le32(1) + le32(56) + le16(0x0202) + le16(4) + le32(1) + le32(thumbnail.count) + le32(0)
        tiff += [UInt8](thumbnail)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Data([0xFF, 0xD8] + segment) + main.dropFirst(2)
    }

    /// A 1600×1200 camera-like JPEG (about 1 MB) whose 160×120 EXIF thumbnail is red on its stored
    /// left half and blue on its right half (the main image is green-grey noise).
    static func cameraJPEG(orientation: UInt16, thumbnailWidth: Int = 160) async throws -> Data {
        let main = try await SufficientDownloadTests.jpeg(width: 1600, height: 1200, flags: "") { _, _, noise in [60 &+ noise, 160 &+ noise, 60 &+ noise] }
        let thumbnail = try await SufficientDownloadTests.jpeg(width: thumbnailWidth, height: 120, flags: "") { x, _, _ in
            x < thumbnailWidth / 2 ? [230, 20, 20] : [20, 20, 230]
        }
        return withExif(main, thumbnail: thumbnail, orientation: orientation)
    }

    static func serve(_ kit: ManagerTestKit, _ path: String, _ body: Data, ranges: Bool = true) {
        var stub = StubResponse.ok(body, contentType: "image/jpeg")
        stub.etag = "\"e1\""
        stub.supportsRange = ranges
        kit.server.route(path, stub)
    }

    /// A cell's load: its final result (partial renders may come first).
    static func cell(_ kit: ManagerTestKit, _ path: String, _ size: PixelSize) async -> ImageLoadResult? {
        let results = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(url: kit.server.url(path), targetSize: size,
                                                  options: [.progressiveLoad, .stopWhenSufficient])) { results.record($0) }
        _ = await results.wait { $0.contains { $0.isFinished } }
        return results.all.first { $0.isFinished }
    }

    @Test func aCameraJPEGCellFetches64KBAndShowsItsOrientedEXIFThumbnail() async throws {
        let body = try await Self.cameraJPEG(orientation: 6)  // rotate 90° clockwise: stored left → top
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/cam.jpg", body)
        let result = try #require(await Self.cell(kit, "/cam.jpg", PixelSize(width: 60, height: 80)))
        let image = try #require(result.image)
        #expect(result.isFinished && image.size == PixelSize(width: 60, height: 80))
        #expect(image.sourceSize == PixelSize(width: 1200, height: 1600))
        #expect(image.earlyTier == .exifThumbnail)
        let top = image.pixel(x: 30, y: 10), bottom = image.pixel(x: 30, y: 70)
        #expect(top.r > 180 && top.b < 80, "top \(top)")
        #expect(bottom.b > 180 && bottom.r < 80, "bottom \(bottom)")
        let requests = kit.server.requests(to: "/cam.jpg")
        print("camera \(body.count) B: requests \(requests.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" })")
        #expect(requests.count == 1)
        #expect(requests.first?.header("Range") == "bytes=0-65535" && requests.first?.status == 206)
        #expect((requests.first?.bytesSent ?? .max) <= 65_536)
        await kit.tearDown()
    }

    @Test func aBaselineJPEGWhoseThumbnailIsTooSmallContinuesTheSameOperationFrom65536() async throws {
        let body = try await Self.cameraJPEG(orientation: 1)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/big.jpg", body)
        // 400×300 is larger than the 160×120 thumbnail: the whole file is decoded.
        let result = try #require(await Self.cell(kit, "/big.jpg", PixelSize(width: 400, height: 300)))
        #expect(result.isFinished && result.image?.size == PixelSize(width: 400, height: 300))
        #expect(result.data == body)
        let requests = kit.server.requests(to: "/big.jpg")
        print("no thumbnail use: requests \(requests.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" })")
        #expect(requests.map { $0.header("Range") } == ["bytes=0-65535", "bytes=65536-"])  // no DC window: not progressive
        #expect(requests.map(\.status) == [206, 206])
        #expect(requests.last?.header("If-Range") == "\"e1\"" && requests.last?.status == 206)
        #expect(requests.map(\.bytesSent).reduce(0, +) == body.count)
        // Another aspect: the thumbnail is not used either.
        let other = try await Self.cameraJPEG(orientation: 1, thumbnailWidth: 120)
        Self.serve(kit, "/aspect.jpg", other)
        let square = try #require(await Self.cell(kit, "/aspect.jpg", PixelSize(width: 40, height: 30)))
        #expect(square.data == other && square.image.map { $0.pixel(x: 20, y: 15).g > 120 } == true)
        await kit.tearDown()
    }

    @Test func aServerIgnoringRangeStillWorks() async throws {
        let body = try await Self.cameraJPEG(orientation: 1)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/norange.jpg", body, ranges: false)
        let small = try #require(await Self.cell(kit, "/norange.jpg", PixelSize(width: 80, height: 60)))
        #expect(small.isFinished && small.image?.size == PixelSize(width: 80, height: 60))
        #expect(kit.server.requests(to: "/norange.jpg").map(\.status) == [200])
        Self.serve(kit, "/norange2.jpg", body, ranges: false)
        let large = try #require(await Self.cell(kit, "/norange2.jpg", PixelSize(width: 400, height: 300)))
        #expect(large.data == body && large.image?.size == PixelSize(width: 400, height: 300))
        #expect(kit.server.requests(to: "/norange2.jpg").map(\.status) == [200])
        await kit.tearDown()
    }

    /// However fast the link (unthrottled loopback: a streamed body would be all in before the
    /// decoder looks), a progressive JPEG cell stops at the window holding its DC scans.
    @Test func anUnthrottledProgressiveJPEGStopsAtTheWindowWithItsDCScans() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 3200, height: 2400)
        let dcEnd = JPEGScans.ends(body)[0]
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/prog.jpg", body)
        let result = try #require(await Self.cell(kit, "/prog.jpg", PixelSize(width: 400, height: 300)))
        #expect(result.isFinished && result.image?.size == PixelSize(width: 400, height: 300))
        let requests = kit.server.requests(to: "/prog.jpg")
        let sent = requests.map(\.bytesSent).reduce(0, +)
        print("progressive \(body.count) B, DC scan ends at \(dcEnd): requests \(requests.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" })")
        #expect(dcEnd < 524_288 && sent <= 524_288 && sent < body.count / 2, "sent \(sent) of \(body.count)")
        #expect(kit.manager.downloader.partials.urls == [kit.server.url("/prog.jpg")])
        await kit.tearDown()
    }

    /// Also for a cell that needs 1/4: the windows grow by half (512 KB, then 1.5× the bytes so far)
    /// and the transfer stops at the first one holding scan 4 (libjpeg's default script), instead
    /// of streaming the rest of the file after the 512 KB window.
    @Test func anUnthrottledProgressiveJPEGNeedingOneQuarterStopsAtTheWindowWithItsScans() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 3200, height: 2400)
        let ends = JPEGScans.ends(body)
        let kit = try await ManagerTestKit.make()
        Self.serve(kit, "/prog4.jpg", body)
        // 600×450: more than 1/8 (400×300), at most 1/4 (800×600).
        let result = try #require(await Self.cell(kit, "/prog4.jpg", PixelSize(width: 600, height: 450)))
        #expect(result.isFinished && result.image?.size == PixelSize(width: 600, height: 450))
        let requests = kit.server.requests(to: "/prog4.jpg")
        let sent = requests.map(\.bytesSent).reduce(0, +)
        print("progressive \(body.count) B, scan 4 ends at \(ends[3]): requests \(requests.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" })")
        #expect(sent >= ends[3] && sent <= ends[3] * 3 / 2 + 65_536 && sent < body.count * 3 / 4, "sent \(sent) of \(body.count)")
        #expect(kit.manager.downloader.partials.urls == [kit.server.url("/prog4.jpg")])
        await kit.tearDown()
    }
}
