import Foundation
import ImageCodecs
import Locking
import Testing
import TestSupport
@testable import WebImage

/// Local files load with bounded concurrency, like network loads (issue 21: sixteen small files that
/// inflate to large canvases ran all at once on an unbounded queue, 3 GB on 2 cores).
@Suite struct LocalFileLoaderTests {
    @Test func loadsRunAFewAtATime() async throws {
        let folder = try Fixtures.temporaryDirectory("local-loads")
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = Locked((now: 0, most: 0))
        let loader = LocalFileLoader { _, _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            Thread.sleep(forTimeInterval: 0.4)
            running.withLock { $0.now -= 1 }
            return Image(width: 1, height: 1, pixels: [0, 0, 0, 255])
        }
        let done = CallbackRecorder<Bool>()
        for i in 0..<16 {
            let file = folder.appendingPathComponent("\(i).gif")
            try Data("GIF89a".utf8).write(to: file)
            loader.load(file, options: DecodeOptions()) { done.record((try? $0.get()) != nil) }
        }
        #expect(await done.wait(count: 16, timeout: .seconds(60)))
        #expect(done.all.allSatisfy { $0 })
        let most = running.withLock { $0.most }
        #expect(most <= LocalFileLoader.maxConcurrentLoads, "\(most) loads at once")
    }
}

/// A local file for a small cell is read only as far as the cell needs (`.stopWhenSufficient`): a
/// camera JPEG's first 64 KB when its EXIF thumbnail covers the cell, a progressive JPEG's DC scans
/// at 1/8; what the network does with `Range`.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
struct LocalFileReadingTests {
    @Test func aCameraJPEGCellReadsItsFirst64KBAndShowsItsOrientedEXIFThumbnail() async throws {
        let folder = try Fixtures.temporaryDirectory("local-exif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = try await NeededBytesDownloadTests.cameraJPEG(orientation: 6)
        let file = folder.appendingPathComponent("cam.jpg")
        try body.write(to: file)
        let cell = PixelSize(width: 60, height: 80)

        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let read = try ImageCoders.decodeFile(handle, size: body.count, options: DecodeOptions(targetSize: cell))
        #expect(read.bytesRead == ImageCoders.fileHeadLength, "read \(read.bytesRead) of \(body.count)")
        #expect(read.image.sourceByteCount == body.count && read.image.sourceFormat == .jpeg)

        let kit = try await ManagerTestKit.make()
        let results = LoadRecorder()
        kit.manager.loadImage(with: ImageRequest(url: file, targetSize: cell, delivery: [.stopWhenSufficient])) { results.recordLoad($0) }
        _ = await results.wait { $0.contains { $0.isTerminal } }
        let image = try #require(results.all.first { $0.isTerminal }?.image)
        #expect(image.size == cell && image.sourceSize == PixelSize(width: 1200, height: 1600))
        // The thumbnail (red stored left half → top after the rotation), not the green-grey image.
        let top = image.pixel(x: 30, y: 10), bottom = image.pixel(x: 30, y: 70)
        #expect(top.r > 180 && top.b < 80, "top \(top)")
        #expect(bottom.b > 180 && bottom.r < 80, "bottom \(bottom)")
        await kit.tearDown()
    }

    @Test func aProgressiveJPEGCellReadsUpToItsScansAndALargerTargetReadsOn() async throws {
        let body = try await SufficientDownloadTests.progressiveJPEG(width: 2048, height: 1536)
        let folder = try Fixtures.temporaryDirectory("local-progressive")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.jpg")
        try body.write(to: file)
        func read(_ target: PixelSize) throws -> (image: Image, bytesRead: Int) {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            return try ImageCoders.decodeFile(handle, size: body.count, options: DecodeOptions(targetSize: target))
        }
        let small = try read(PixelSize(width: 200, height: 150))  // 1/8: the DC scan
        print("progressive \(body.count) B: a 200×150 cell read \(small.bytesRead) B (the DC scan ends at \(JPEGScans.ends(body)[0]))")
        #expect(small.bytesRead < body.count / 4 && small.image.size == PixelSize(width: 200, height: 150))
        let whole = try read(PixelSize(width: 2048, height: 1536))
        #expect(whole.bytesRead == body.count)
        #expect(whole.image.pixels == (try ImageCoders.decode(body, options: DecodeOptions(targetSize: PixelSize(width: 2048, height: 1536)))).pixels)
    }
}
