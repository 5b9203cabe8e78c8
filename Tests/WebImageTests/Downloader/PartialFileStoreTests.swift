import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import WebImage

/// Partials kept as files (`ImageDownloaderConfig.partialsDirectory`): a new downloader (a later
/// run) resumes them; the budget counts the files; corrupt files and unwritable directories only
/// mean "not kept".
@Suite struct PartialFileStoreTests {
    static let side = 128

    static func downloader(_ directory: URL, budget: Int = PartialDownloadStore.defaultBudget) -> ImageDownloader {
        var config = ImageDownloaderConfig()
        config.downloadTimeout = 20
        config.partialsDirectory = directory
        config.maxPartialBytes = budget
        return ImageDownloader(config: config)
    }

    static func partial(_ count: Int, total: Int64 = 1000) -> PartialDownload {
        PartialDownload(data: Data(repeating: 9, count: count), validator: "\"v\"", totalLength: total)
    }

    /// Serves `body` slowly at `path`, cancels `downloader`'s load once half of it arrived, and
    /// waits for the store's queued write. Returns the bytes received before the cancel. As
    /// `ResumableDownloadTests.cancelHalfway`: 128 KB/s, a 4 KB chunk every 32 ms, and the body
    /// stops after three quarters so the cancel lands mid-body (32 KB/s took a second a test).
    static func cancelHalfway(_ downloader: ImageDownloader, _ server: LoopbackServer, _ path: String, body: Data) async -> Int64 {
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"d1\""
        stub.bytesPerSecond = 128_000
        stub.fault = .stallAfter(bytes: body.count * 3 / 4)
        server.route(path, stub)
        let progress = CallbackRecorder<Int64>()
        let token = downloader.downloadImage(with: server.url(path), progress: { received, _, _ in progress.record(received) }) { _ in }
        _ = await progress.wait { $0.contains { $0 >= Int64(body.count / 2) } }
        token?.cancel()
        downloader.partials.waitUntilIdle()
        return progress.all.last ?? 0
    }

    @Test func aPartialOnDiskIsResumedByANewDownloader() async throws {
        let server = try await LoopbackServer.start()
        let directory = try Fixtures.temporaryDirectory("partials").appendingPathComponent("partials")
        let body = TestPNG.solid(width: Self.side, height: Self.side, rgba: (5, 150, 250, 255))
        let first = Self.downloader(directory)
        _ = await Self.cancelHalfway(first, server, "/disk.png", body: body)
        let url = server.url("/disk.png")
        #expect(first.partials.urls == [url])
        let kept = first.partials.bytes
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files == [DiskCache.fileName(forKey: url.absoluteString, extension: "partial")])

        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"d1\""
        server.route("/disk.png", stub)
        let second = Self.downloader(directory)  // a later run
        let result = try await second.image(for: url)
        #expect(result.data == body)
        #expect(result.image?.firstPixel == [5, 150, 250, 255])
        let resumed = server.requests(to: "/disk.png").last
        let range = try #require(resumed?.header("Range"))
        let start = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(range == "bytes=\(start)-" && start >= body.count / 2 && start < body.count)
        #expect(start < kept)  // the file holds the bytes plus a small header
        #expect(resumed?.header("If-Range") == "\"d1\"")
        #expect(resumed?.status == 206)
        second.partials.waitUntilIdle()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        await server.stop()
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    @Test func theDiskBudgetDropsTheOldestFile() throws {
        let directory = try Fixtures.temporaryDirectory("partials-budget")
        defer { try? FileManager.default.removeItem(at: directory) }
        let header = PartialFileStore.headerSize + "http://127.0.0.1/a".utf8.count + 3
        let store = PartialDownloadStore(budget: 100 + 2 * header, directory: directory)
        let a = URL(string: "http://127.0.0.1/a")!, b = URL(string: "http://127.0.0.1/b")!, c = URL(string: "http://127.0.0.1/c")!
        // File times tick in jiffies: date each file back so the order is not left to a tie.
        let files = PartialFileStore(directory: directory, budget: 0)
        func age(_ url: URL, seconds: TimeInterval) throws {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)],
                                                  ofItemAtPath: files.fileURL(for: url).path)
        }
        store.keep(Self.partial(60), for: a)
        store.waitUntilIdle()
        try age(a, seconds: 60)
        store.keep(Self.partial(30), for: b)
        store.waitUntilIdle()
        try age(b, seconds: 30)
        #expect(store.urls == [a, b])
        store.keep(Self.partial(30), for: c)
        store.waitUntilIdle()
        #expect(store.urls == [b, c])
        #expect(store.bytes == 60 + 2 * header)
        // A new store over the same directory (a later run) finds them; take removes the file.
        let later = PartialDownloadStore(budget: 1000, directory: directory)
        #expect(later.take(b)?.data == Data(repeating: 9, count: 30))
        #expect(later.urls == [c])
        #expect(later.take(a) == nil)
        later.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func corruptTruncatedAndForeignFilesAreIgnoredAndRemoved() throws {
        let directory = try Fixtures.temporaryDirectory("partials-corrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = PartialFileStore(directory: directory, budget: 1 << 20)
        let url = URL(string: "http://127.0.0.1/x.png")!
        let valid = PartialFileStore.encode(Self.partial(50), url: url)
        let cases: [Data] = [
            Data("not a partial at all".utf8),
            valid.prefix(valid.count - 1),                                       // truncated
            valid + Data([0]),                                                   // trailing bytes
            PartialFileStore.encode(Self.partial(50), url: URL(string: "http://127.0.0.1/other")!),  // another URL's
            Data(valid.prefix(4)) + Data([2]) + valid.dropFirst(5),              // a future version
            Data(),
        ]
        for contents in cases {
            try contents.write(to: files.fileURL(for: url))
            #expect(files.read(url) == nil)
            #expect(!FileManager.default.fileExists(atPath: files.fileURL(for: url).path))
        }
        try valid.write(to: files.fileURL(for: url))
        #expect(files.read(url)?.data.count == 50)
    }

    /// A corrupt file where the partial would be: the load is a full download and the file goes.
    @Test func aCorruptFileMeansAFullDownload() async throws {
        let server = try await LoopbackServer.start()
        let directory = try Fixtures.temporaryDirectory("partials-junk")
        let body = TestPNG.solid(width: 16, height: 16, rgba: (7, 7, 7, 255))
        server.route("/junk.png", StubResponse.ok(body, contentType: "image/png"))
        let downloader = Self.downloader(directory)
        let file = PartialFileStore(directory: directory, budget: 1).fileURL(for: server.url("/junk.png"))
        try Data("SDGP\u{1}garbage".utf8).write(to: file)
        let result = try await downloader.image(for: server.url("/junk.png"))
        #expect(result.data == body)
        #expect(server.requests(to: "/junk.png").last?.header("Range") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A directory that cannot be written (read-only; under a file, which stops root too): nothing
    /// is kept, loads work, nothing crashes.
    @Test func anUnwritableDirectoryKeepsNothing() async throws {
        let server = try await LoopbackServer.start()
        let base = try Fixtures.temporaryDirectory("partials-ro")
        let blocker = base.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let directory = blocker.appendingPathComponent("partials")
        #expect(chmod(base.path, 0o500) == 0)
        let body = TestPNG.solid(width: Self.side, height: Self.side, rgba: (1, 2, 3, 255))
        let downloader = Self.downloader(directory)
        _ = await Self.cancelHalfway(downloader, server, "/ro.png", body: body)
        #expect(downloader.partials.urls.isEmpty)
        #expect(downloader.partials.bytes == 0)
        var stub = StubResponse.ok(body, contentType: "image/png")
        stub.etag = "\"d1\""
        server.route("/ro.png", stub)
        let result = try await downloader.image(for: server.url("/ro.png"))
        #expect(result.data == body)
        #expect(server.requests(to: "/ro.png").last?.header("Range") == nil)
        await server.stop()
        _ = chmod(base.path, 0o700)
        try? FileManager.default.removeItem(at: base)
    }
}
