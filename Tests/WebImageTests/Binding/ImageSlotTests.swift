import Foundation
import ImageCodecs
import Synchronization
import Testing
import TestSupport
@testable import WebImage

/// What a slot assigned, seen from its UI executor.
private final class Assignments: @unchecked Sendable {  // touched only on the slot's executor
    var log: [(boundURL: URL?, image: Image?)] = []
}

@Suite struct ImageSlotTests {
    /// Colour i of the rebind test: every URL has its own.
    static func color(_ i: Int) -> (UInt8, UInt8, UInt8, UInt8) { (UInt8(i * 5), UInt8(255 - i * 5), UInt8(i % 7 * 30), 255) }

    @Test func thousandRapidRebindsEndOnTheLastURLAndNeverShowAStaleImage() async throws {
        let kit = try await ManagerTestKit.make()
        var urls: [URL] = []
        for i in 0..<50 {
            var stub = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: Self.color(i)), contentType: "image/png")
            stub.bytesPerSecond = i % 3 == 0 ? 4_000 : nil  // some slow, some instant, some cached later
            kit.server.route("/r\(i).png", stub)
            urls.append(kit.server.url("/r\(i).png"))
        }
        let executor = QueueUIExecutor()
        let seen = Assignments()
        let slot = executor.sync { () -> ImageSlot in
            let slot = ImageSlot(manager: kit.manager, executor: executor)
            slot.onImageChange = { [unowned slot] image in seen.log.append((slot.url, image)) }
            return slot
        }
        var lastURL = urls[0]
        for n in 0..<1000 {
            let url = urls[(n * 7) % 50]
            lastURL = url
            executor.sync { slot.setImage(with: ImageRequest(url: url, priority: .high, options: .progressiveLoad)) }
            if n % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let expected = Self.color(urls.firstIndex(of: lastURL) ?? 0)
        let want = [expected.0, expected.1, expected.2, expected.3]
        var shown: [UInt8]?
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            shown = executor.sync { slot.image?.firstPixel }
            if shown == want { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(shown == want)
        let log = executor.sync { seen.log }
        for entry in log {
            guard let image = entry.image, let bound = entry.boundURL, let index = urls.firstIndex(of: bound) else { continue }
            let c = Self.color(index)
            #expect(image.firstPixel == [c.0, c.1, c.2, c.3], "slot bound to \(bound.lastPathComponent) showed another URL's image")
        }
        #expect(executor.sync { slot.url } == lastURL)
        await kit.tearDown()
    }

    @Test func aRebindClearsTheImageAndANilURLFailsAtOnce() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/ok.png", color: (1, 2, 3, 255))
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let done = LoadRecorder()

        executor.sync { slot.setImage(with: ImageRequest(url: kit.server.url("/ok.png"))) { done.recordLoad($0) } }
        #expect(await done.wait(count: 1))
        #expect(executor.sync { slot.image?.firstPixel } == [1, 2, 3, 255])

        executor.sync { slot.setImage(with: ImageRequest(url: nil)) { done.recordLoad($0) } }
        #expect(done.all.count == 2)
        #expect(done.all.last?.error == .invalidURL(""))
        #expect(executor.sync { slot.image } == nil)
        await kit.tearDown()
    }

    @Test func avoidAutoSetImageHandsTheImageToTheCompletion() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/a.png", color: (4, 5, 6, 255))
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let done = LoadRecorder()
        executor.sync { slot.setImage(with: ImageRequest(url: kit.server.url("/a.png"), options: .avoidAutoSetImage)) { done.recordLoad($0) } }
        #expect(await done.wait(count: 1))
        #expect(done.all.first?.image?.firstPixel == [4, 5, 6, 255])
        #expect(executor.sync { slot.image } == nil)
        await kit.tearDown()
    }

    @Test func cancelCurrentImageLoadStopsTheTransferAndTheCallback() async throws {
        let kit = try await ManagerTestKit.make()
        var slow = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (1, 1, 1, 255)))
        slow.bytesPerSecond = 1000  // cannot finish before the cancel on a loaded machine
        slow.chunkSize = 256
        kit.server.route("/slow.png", slow)
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let done = LoadRecorder()
        executor.sync { slot.setImage(with: ImageRequest(url: kit.server.url("/slow.png"))) { done.record($0) } }
        #expect(await kit.server.waitUntil { !$0.isEmpty })
        let before = executor.sync { slot.cancelCurrentImageLoad(); return done.all.count }  // progress so far
        #expect(await kit.server.waitUntil(timeout: .seconds(30)) { $0.first?.clientDisconnectedEarly == true })
        #expect(await kit.manager.untilIdle())
        executor.sync {}  // a callback queued for the slot would have run by now
        #expect(done.all.count == before)
        #expect(done.all.allSatisfy { if case .progress = $0 { true } else { false } })
        await kit.tearDown()
    }
}
