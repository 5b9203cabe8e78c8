import Foundation
import Testing
import TestSupport
@testable import WebImage

@Suite("ImageDownloader: async API, session life cycle, leaks")
struct ImageDownloaderLifecycleTests {
    @Test("async image(for:) returns the final result; task cancellation aborts the transfer")
    func asyncAPI() async throws {
        let server = try await LoopbackServer.start()
        server.route("/fast", .ok(DownloaderTestKit.fakeImageBytes(1000)))
        server.route("/slow", DownloaderTestKit.slowImage(size: 256 * 1024, seconds: 20))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let result = try await downloader.image(for: server.url("/fast"))
        #expect(result.isFinished && result.image != nil && result.data.count == 1000)

        let task = Task { try await downloader.image(for: server.url("/slow")) }
        #expect(await server.waitUntil { $0.contains { $0.path == "/slow" && $0.bytesSent > 0 } })
        let start = ContinuousClock.now
        task.cancel()
        let outcome = await task.result
        #expect(ContinuousClock.now - start < .seconds(1))
        guard case .failure(let error) = outcome, case .cancelled? = error as? DownloadError else {
            Issue.record("\(outcome)")
            return
        }
        #expect(await server.waitUntil(timeout: .seconds(30)) { $0.last?.clientDisconnectedEarly == true })
        await server.stop()
    }

    @Test("invalidateSessionAndCancel(true): running downloads get .cancelled, new ones are refused, thread ends")
    func invalidate() async throws {
        let server = try await LoopbackServer.start()
        server.route("/slow", DownloaderTestKit.slowImage(size: 128 * 1024, seconds: 2))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let recorder = ResultRecorder()
        downloader.downloadImage(with: server.url("/slow")) { recorder.record($0) }
        #expect(await server.waitUntil { $0.first?.bytesSent ?? 0 > 0 })
        downloader.invalidateSessionAndCancel(true)
        #expect(await recorder.wait(count: 1))
        guard case .failure(.cancelled)? = recorder.all.first else { Issue.record("\(recorder.all)"); return }
        let later = ResultRecorder()
        #expect(downloader.downloadImage(with: server.url("/slow"), completed: { later.record($0) }) == nil)
        guard case .failure(.cancelled)? = later.all.first else { Issue.record("\(later.all)"); return }
        let stopped = await CallbackRecorder<Bool>().wait(timeout: .seconds(2)) { _ in !downloader.isSessionRunning }
        #expect(stopped)
        await server.stop()
    }

    @Test("invalidateSessionAndCancel(false) lets queued downloads finish first")
    func invalidateGracefully() async throws {
        let server = try await LoopbackServer.start()
        for i in 0..<3 { server.route("/g\(i)", .ok(DownloaderTestKit.fakeImageBytes(500))) }
        let downloader = ImageDownloader(config: DownloaderTestKit.config(maxConcurrent: 1))
        let recorder = ResultRecorder()
        for i in 0..<3 { downloader.downloadImage(with: server.url("/g\(i)")) { recorder.record($0) } }
        downloader.invalidateSessionAndCancel(false)
        #expect(await recorder.wait(count: 3))
        #expect(recorder.all.allSatisfy { (try? $0.get().isFinished) == true })
        let stopped = await CallbackRecorder<Bool>().wait(timeout: .seconds(2)) { _ in !downloader.isSessionRunning }
        #expect(stopped)
        await server.stop()
    }

    @Test("resetSession cancels everything in flight and keeps working with a fresh session")
    func resetSession() async throws {
        let server = try await LoopbackServer.start()
        server.route("/slow", DownloaderTestKit.slowImage(size: 128 * 1024, seconds: 2))
        server.route("/fast", .ok(DownloaderTestKit.fakeImageBytes(100)))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let recorder = ResultRecorder()
        downloader.downloadImage(with: server.url("/slow")) { recorder.record($0) }
        #expect(await server.waitUntil { !$0.isEmpty })
        downloader.resetSession()
        #expect(await recorder.wait(count: 1))
        guard case .failure(.cancelled)? = recorder.all.first else { Issue.record("\(recorder.all)"); return }
        let fresh = try await downloader.image(for: server.url("/fast"))
        #expect(fresh.isFinished)
        var config = DownloaderTestKit.config(maxConcurrent: 3)
        config.downloadTimeout = 0
        downloader.replaceConfig(config)
        #expect(downloader.maxConcurrentDownloads == 3)
        #expect(downloader.config.effectiveTimeout == .seconds(15))
        #expect(try await downloader.image(for: server.url("/fast")).isFinished)
        await server.stop()
    }

    @Test("1000 start-and-cancel cycles leave no easy handle, socket, fd or thread behind")
    func startCancelCycles() async throws {
        // Its own port: the socket count below must not see other tests' connections.
        let server = try await LoopbackServer.startIsolated()
        server.route("/c", DownloaderTestKit.slowImage(size: 64 * 1024, seconds: 1))
        do {
            // Patient: on a starved pool the test may reach a cancel only after the 5 s default timeout.
            let downloader = ImageDownloader(config: DownloaderTestKit.config(timeout: 30))
            let recorder = ResultRecorder()
            for i in 0..<1000 {
                let token = downloader.downloadImage(with: server.url("/c")) { recorder.record($0) }
                if i % 100 == 0 { _ = await server.waitUntil(timeout: .seconds(2)) { $0.count > i / 100 } }
                token?.cancel()
            }
            let drained = await recorder.wait(timeout: .seconds(3)) { _ in
                downloader.activeTransferCount == 0 && downloader.currentDownloadCount == 0
            }
            #expect(drained)
            #expect(recorder.all.isEmpty)
            #expect(server.requests.count >= 10)
            let port = server.port
            let clean = await recorder.wait(timeout: .seconds(3)) { _ in ProcessResources.clientSockets(toPort: port) == 0 }
            #expect(clean, "client sockets still open: \(ProcessResources.clientSockets(toPort: port))")
            let tid = downloader.networkThreadID
            #expect(tid > 0 && FileManager.default.fileExists(atPath: "/proc/self/task/\(tid)"))
            downloader.invalidateSessionAndCancel(true)
            let threadGone = await recorder.wait(timeout: .seconds(2)) { _ in
                !FileManager.default.fileExists(atPath: "/proc/self/task/\(tid)")
            }
            #expect(threadGone, "network thread \(tid) still alive")
        }
        await server.stop()
    }
}
