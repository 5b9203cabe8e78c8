import Foundation
import Locking
import Testing
import TestSupport
@testable import WebImage

/// Issue 14: `Locked` is the one lock of `ImageDownloadOperation`, and no lock is held while a
/// handler runs.
@Suite struct ImageDownloadOperationDeliveryTests {
    /// While handler A's callback runs, another thread removes handler B of the same operation: that
    /// must not wait for A's callback (it did while a recursive delivery lock was held around callbacks).
    @Test func removingAnotherHandlerDoesNotWaitForARunningCallback() async throws {
        let server = try await LoopbackServer.start()
        server.route("/d", DownloaderTestKit.slowImage(size: 32 * 1024, seconds: 0.3))
        let downloader = ImageDownloader(config: DownloaderTestKit.config())
        let url = server.url("/d")
        let tokenB = Locked<DownloadToken?>(nil)
        let removedInTime = CallbackRecorder<Bool>()
        let b = ResultRecorder()
        downloader.downloadImage(with: url) { _ in
            let returned = DispatchSemaphore(value: 0)
            Thread {
                tokenB.withLock { $0 }?.cancel()
                returned.signal()
            }.start()
            removedInTime.record(returned.wait(timeout: .now() + 5) == .success)
        }
        tokenB.withLock { $0 = downloader.downloadImage(with: url) { b.record($0) } }
        #expect(await removedInTime.wait(count: 1, timeout: .seconds(30)))
        #expect(removedInTime.all == [true])
        #expect(b.all.isEmpty)  // removed before its turn: never called
        await server.stop()
    }
}
