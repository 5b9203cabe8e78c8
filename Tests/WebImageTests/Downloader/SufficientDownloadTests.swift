import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// `.stopWhenSufficient`: a progressive JPEG for a cell at most 1/8 of it stops once its DC scans
/// arrived (the cell's pixels are known), keeps the partial, and the full view resumes it with
/// `Range`, byte-identical. Against the real loopback server, which counts each request's bytes.
@Suite struct SufficientDownloadTests {
    /// A progressive JPEG (libjpeg's default script: one DC scan of all three components first)
    /// of `width`×`height` noisy pixels, made by `cjpeg`.
    static func progressiveJPEG(width: Int, height: Int) async throws -> Data {
        try await jpeg(width: width, height: height, flags: "-progressive")
    }

    /// A JPEG of `width`×`height` noisy pixels (`flags` for cjpeg; `colour` picks the pixels:
    /// (x, y, noise) → RGB), made by `cjpeg`.
    static func jpeg(width: Int, height: Int, flags: String,
                     colour: (Int, Int, UInt8) -> [UInt8] = { x, y, noise in
                         [UInt8(truncatingIfNeeded: x / 5) &+ noise, UInt8(truncatingIfNeeded: y / 4) &+ noise, 128 &+ noise] }) async throws -> Data {
        let dir = try Fixtures.temporaryDirectory("progressive")
        defer { try? FileManager.default.removeItem(at: dir) }
        var ppm = Data("P6\n\(width) \(height)\n255\n".utf8)
        var seed: UInt32 = 12345
        ppm.reserveCapacity(width * height * 3 + 20)
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = UInt8(truncatingIfNeeded: seed >> 24) / 4
                ppm.append(contentsOf: colour(x, y, noise))
            }
        }
        let input = dir.appendingPathComponent("in.ppm"), output = dir.appendingPathComponent("out.jpg")
        try ppm.write(to: input)
        _ = try await Blocking.run {
            try ChildProcess.run("/bin/sh", ["-c", "cjpeg \(flags) -quality 92 '\(input.path)' > '\(output.path)'"], timeout: 60)
        }
        return try Data(contentsOf: output)
    }

    /// A load's results until its final one (partial renders come first with `.progressiveLoad`).
    /// A manager kit whose loopback server serves `body` as a JPEG at `path`, with `etag`, at `rate`
    /// bytes a second; and the URL.
    static func serving(_ body: Data, at path: String, etag: String, rate: Int, memory: Bool = true) async throws -> (ManagerTestKit, URL) {
        let kit = try await ManagerTestKit.make(memory: memory)
        var stub = StubResponse.ok(body, contentType: "image/jpeg")
        stub.etag = etag
        stub.bytesPerSecond = rate
        kit.server.route(path, stub)
        return (kit, kit.server.url(path))
    }

    static func load(_ kit: ManagerTestKit, _ url: URL, delivery: ImageRequest.DeliveryOptions, cache: ImageRequest.CachePolicy = .init(), size: PixelSize) async -> [ImageLoadEvent] {
        let results = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(url: url, targetSize: size, cache: cache, delivery: delivery)) { results.recordLoad($0) }
        _ = await results.wait { $0.contains { $0.isTerminal } }
        return results.all
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
    func aProgressiveCellStopsAfterItsDCScanAndTheFullViewResumesWithRange() async throws {
        let body = try await Self.progressiveJPEG(width: 1024, height: 768)
        let dcEnd = JPEGScans.ends(body)[0]
        let (kit, url) = try await Self.serving(body, at: "/p.jpg", etag: "\"j1\"", rate: 1_000_000)

        // The cell: 120×90 is at most 1/8 of 1024×768 per axis.
        let cell = await Self.load(kit, url, delivery: [.progressiveLoad, .stopWhenSufficient], size: PixelSize(width: 120, height: 90))
        let final = try #require(cell.last)
        #expect(final.isTerminal && final.error == nil)
        #expect(final.image?.size == PixelSize(width: 120, height: 90))
        _ = await kit.server.waitUntil { $0.first { $0.path == "/p.jpg" }.map { $0.finished || $0.clientDisconnectedEarly } == true }
        let first = try #require(kit.server.requests(to: "/p.jpg").first)
        print("progressive \(body.count) B, DC scan ends at \(dcEnd), the cell's request sent \(first.bytesSent) B")
        #expect(first.bytesSent <= dcEnd + 14 + NeededBytesDownloadTests.slack && first.bytesSent < body.count / 4,
                "sent \(first.bytesSent) of \(body.count) (DC scan ends at \(dcEnd))")
        #expect(kit.manager.downloader.partials.urls == [url])
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.disk?.entry(forKey: kit.manager.cacheKey(for: url)) == nil)  // not the original

        // The full view: resumes the kept bytes with Range and gets the whole original.
        kit.server.route("/p.jpg", { var whole = StubResponse.ok(body, contentType: "image/jpeg"); whole.etag = "\"j1\""; return whole }())
        let full = await Self.load(kit, url, delivery: [.progressiveLoad], size: PixelSize(width: 1024, height: 768))
        #expect(full.last?.data == body)
        #expect(full.last?.image?.size == PixelSize(width: 1024, height: 768))
        let resumed = kit.server.requests(to: "/p.jpg").last
        #expect(resumed?.header("Range")?.hasPrefix("bytes=") == true && resumed?.header("Range") != "bytes=0-")
        #expect(resumed?.status == 206)
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.disk?.entry(forKey: kit.manager.cacheKey(for: url))?.data == body)
        await kit.tearDown()
    }

    /// `--print`'s request: the stop alone (`.stopWhenSufficient` without `.progressiveLoad`,
    /// awaited through `image(for:)`) still stops after the DC scan, and no partial image is
    /// rendered on the way. Before, the stop needed `.progressiveLoad`, which `image(for:)` drops:
    /// the sheet fetched and decoded every byte.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
    func theStopWithoutPartialsStopsAfterTheDCScanAndRendersNoPartial() async throws {
        let body = try await Self.progressiveJPEG(width: 1024, height: 768)
        let (kit, url) = try await Self.serving(body, at: "/p.jpg", etag: "\"j1\"", rate: 1_000_000)
        let cell = PixelSize(width: 120, height: 90)
        let results = await Self.load(kit, url, delivery: [.stopWhenSufficient], size: cell)
        #expect(results.count == 1 && results.allSatisfy(\.isTerminal), "partial renders: \(results.filter { !$0.isTerminal }.count)")
        #expect(results.last?.image?.size == cell)
        let awaited = try await kit.manager.image(for: ImageRequest(url: url, targetSize: cell, delivery: [.stopWhenSufficient]))
        #expect(awaited.image.size == cell)
        _ = await kit.server.waitUntil { $0.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        let sent = kit.server.requests(to: "/p.jpg").reduce(0) { $0 + $1.bytesSent }
        #expect(sent < body.count / 4, "sent \(sent) of \(body.count) bytes")
        await kit.tearDown()
    }

    /// Peak signal-to-noise ratio of two images of one size over their RGB channels, in dB.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        var sum = 0.0
        for i in 0..<a.pixels.count where i % 4 != 3 {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.pixels.count / 4 * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// A cell between 1/8 and 1/4 of a progressive JPEG (decoded at 1/4) stops once the scans that
    /// carry the 1/4 image's coefficients are in — libjpeg's default script: scan 4 (luma 1–5 at
    /// Al 2, both chroma 1–63 at Al 1) — not at the end; it is as sharp as the whole file's decode at
    /// the cell's size (PSNR), and the full view resumes with `Range`, byte-identical.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
    func aCellNeedingOneQuarterStopsAfterTheScansThatCarryIt() async throws {
        // A picture rather than noise: gradients, rings and stripes (4 px wide at 1/4), a little noise.
        let body = try await Self.jpeg(width: 1024, height: 768, flags: "-progressive") { x, y, noise in
            let dx = Double(x - 512), dy = Double(y - 384)
            let ring = UInt8(127 + 120 * sin(sqrt(dx * dx + dy * dy) / 9))
            let stripe: UInt8 = (x / 8) % 2 == 0 ? 40 : 0
            return [ring &+ noise / 8, UInt8(truncatingIfNeeded: y / 3) &+ stripe, UInt8(truncatingIfNeeded: x / 4) &+ noise / 8]
        }
        let ends = JPEGScans.ends(body)
        try #require(ends.count == 10, "libjpeg's default progressive script has 10 scans")
        let (kit, url) = try await Self.serving(body, at: "/q.jpg", etag: "\"q1\"", rate: 250_000)

        // 200×150: more than 1/8 (128×96), at most 1/4 (256×192) of 1024×768.
        let size = PixelSize(width: 200, height: 150)
        let cell = await Self.load(kit, url, delivery: [.progressiveLoad, .stopWhenSufficient], size: size)
        let final = try #require(cell.last)
        #expect(final.isTerminal && final.error == nil)
        let image = try #require(final.image)
        #expect(image.size == size && image.earlyTier == .scale(denominator: 4))
        // One transfer, stopped at the header after scan 4.
        _ = await kit.server.waitUntil { $0.filter { $0.path == "/q.jpg" }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        let sent = kit.server.requests(to: "/q.jpg").reduce(0) { $0 + $1.bytesSent }
        print("progressive \(body.count) B, scans end at \(ends), the 1/4 cell's requests sent \(sent) B")
        #expect(sent >= ends[3], "stopped before scan 4 was in: \(sent) of \(body.count)")
        // The stop is read from the markers on the network thread: however late the decode lane.
        #expect(sent <= ends[3] + 14 + NeededBytesDownloadTests.slack, "sent \(sent) of \(body.count) (scan 4 ends at \(ends[3]))")
        let whole = try ImageCoders.decode(body, options: DecodeOptions(targetSize: size))
        let sharpness = Self.psnr(image, whole)
        print("the 1/4 cell against the whole file's decode at \(size.width)×\(size.height): PSNR \(sharpness) dB")
        // 37.8 dB here (its hard-edged stripes), 39.8–47.3 dB on five photographs after scan 4.
        #expect(sharpness >= 36, "PSNR \(sharpness) dB")
        #expect(kit.manager.downloader.partials.urls == [url])

        kit.server.route("/q.jpg", { var whole = StubResponse.ok(body, contentType: "image/jpeg"); whole.etag = "\"q1\""; return whole }())
        let full = await Self.load(kit, url, delivery: [.progressiveLoad], size: PixelSize(width: 1024, height: 768))
        #expect(full.last?.data == body)
        #expect(kit.server.requests(to: "/q.jpg").last?.status == 206)
        kit.manager.cache.waitUntilIdle()
        #expect(kit.manager.cache.disk?.entry(forKey: kit.manager.cacheKey(for: url))?.data == body)
        await kit.tearDown()
    }

    /// A second load of the cell (a later run: nothing in memory, no original on disk, its early
    /// image evicted) resumes the kept bytes and stops at once: they hold the cell's scans already.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
    func aSecondLoadOfTheCellStopsAsItsResumeStarts() async throws {
        let body = try await Self.progressiveJPEG(width: 1024, height: 768)
        let (kit, url) = try await Self.serving(body, at: "/w.jpg", etag: "\"w1\"", rate: 1_000_000, memory: false)
        let size = PixelSize(width: 120, height: 90)
        _ = await Self.load(kit, url, delivery: [.progressiveLoad, .stopWhenSufficient], size: size)
        _ = await kit.server.waitUntil { $0.filter { $0.path == "/w.jpg" }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        kit.manager.cache.waitUntilIdle()
        kit.manager.cache.disk?.remove(forKey: EarlyImageEntry.diskKey(for: ImageCacheKey(urlKey: kit.manager.cacheKey(for: url))))
        let before = kit.server.requests(to: "/w.jpg").count
        kit.server.route("/w.jpg", { var next = StubResponse.ok(body, contentType: "image/jpeg"); next.etag = "\"w1\""; next.bytesPerSecond = 1_000_000; return next }())
        let again = await Self.load(kit, url, delivery: [.progressiveLoad, .stopWhenSufficient], size: size)
        #expect(again.last?.isTerminal == true && again.last?.image?.size == size)
        _ = await kit.server.waitUntil { $0.filter { $0.path == "/w.jpg" }.allSatisfy { $0.finished || $0.clientDisconnectedEarly } }
        let second = Array(kit.server.requests(to: "/w.jpg").dropFirst(before))
        let sent = second.reduce(0) { $0 + $1.bytesSent }
        print("second load: \(second.map { "\($0.header("Range") ?? "-") → \($0.status), \($0.bytesSent) B" })")
        #expect(second.count == 1 && second.first?.status == 206)
        #expect(sent <= NeededBytesDownloadTests.slack, "sent \(sent) of the \(body.count) B file again")
        await kit.tearDown()
    }

    /// An Adam7 PNG for a cell at most 1/8 of it stops after its first pass (one pixel of every
    /// 8×8 block, 1/64 of the pixels): the cell shows exactly those pixels; the full view resumes.
    @Test func anAdam7PNGCellStopsAfterItsFirstPass() async throws {
        let side = 512
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let i = (y * side + x) * 4
                pixels[i] = UInt8(truncatingIfNeeded: x); pixels[i + 1] = UInt8(truncatingIfNeeded: y); pixels[i + 2] = UInt8(truncatingIfNeeded: x ^ y)
            }
        }
        let body = TestPNG.adam7(width: side, height: side, rgba: pixels)
        let kit = try await ManagerTestKit.make()
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"a1\""
        stub.bytesPerSecond = 2_000_000
        kit.server.route("/a.png", stub)
        let url = kit.server.url("/a.png")
        let cell = await Self.load(kit, url, delivery: [.progressiveLoad, .stopWhenSufficient], size: PixelSize(width: 64, height: 64))
        let image = try #require(cell.last?.image)
        #expect(cell.last?.isTerminal == true && image.size == PixelSize(width: 64, height: 64))
        #expect(image.earlyTier == .firstPass)
        // Cell pixel (i, j) is the image's pixel (8i, 8j): the first pass's.
        #expect(image.pixel(x: 5, y: 9) == (40, 72, 40 ^ 72, 255))
        _ = await kit.server.waitUntil { $0.first { $0.path == "/a.png" }.map { $0.finished || $0.clientDisconnectedEarly } == true }
        let first = try #require(kit.server.requests(to: "/a.png").first)
        print("adam7 \(body.count) B, the cell's request sent \(first.bytesSent) B")
        #expect(first.bytesSent < body.count / 8, "sent \(first.bytesSent) of \(body.count)")
        #expect(kit.manager.downloader.partials.urls == [url])

        kit.server.route("/a.png", { var whole = StubResponse.ok(body, contentType: "image/png"); whole.etag = "\"a1\""; return whole }())
        let full = await Self.load(kit, url, delivery: [.progressiveLoad], size: PixelSize(width: side, height: side))
        #expect(full.last?.data == body)
        #expect(full.last?.image.map { $0.pixel(x: 3, y: 5) == (3, 5, 6, 255) } == true)
        #expect(kit.server.requests(to: "/a.png").last?.status == 206)
        await kit.tearDown()
    }
}
