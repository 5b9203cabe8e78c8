import Foundation
import ImageCodecs
import Synchronization
import Testing
import TestSupport
@testable import WebImage

/// What a slot's handlers saw, from its UI executor.
private final class Deliveries: @unchecked Sendable {  // touched only on the slot's executor
    /// The binding whose handler may run now.
    var current = -1
    /// Bindings whose handler ran after a later binding replaced them.
    var stale: [Int] = []
    /// Images delivered to a binding that are not its URL's colour.
    var wrongImages: [Int] = []
    /// The last image the current binding got.
    var lastImage: Image?
}

@Suite struct ImageSlotTests {
    /// Colour i of the rebind test: every URL has its own.
    static func color(_ i: Int) -> (UInt8, UInt8, UInt8, UInt8) { (UInt8(i * 5), UInt8(255 - i * 5), UInt8(i % 7 * 30), 255) }

    @Test func thousandRapidRebindsEndOnTheLastURLAndNeverDeliverAStaleEvent() async throws {
        let kit = try await ManagerTestKit.make()
        var urls: [URL] = []
        for i in 0..<50 {
            var stub = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: Self.color(i)), contentType: "image/png")
            stub.bytesPerSecond = i % 3 == 0 ? 4_000 : nil  // some slow, some instant, some cached later
            kit.server.route("/r\(i).png", stub)
            urls.append(kit.server.url("/r\(i).png"))
        }
        let executor = QueueUIExecutor()
        let seen = Deliveries()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        var lastIndex = 0
        for n in 0..<1000 {
            let index = (n * 7) % 50
            lastIndex = index
            let url = urls[index], c = Self.color(index)
            executor.sync {
                seen.current = n
                slot.setImage(with: ImageRequest(url: url, priority: .high, delivery: .progressiveLoad)) { event in
                    if seen.current != n { seen.stale.append(n) }
                    guard let image = event.image else { return }
                    if image.firstPixel != [c.0, c.1, c.2, c.3] { seen.wrongImages.append(n) }
                    seen.lastImage = image
                }
            }
            if n % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let expected = Self.color(lastIndex)
        let want = [expected.0, expected.1, expected.2, expected.3]
        var shown: [UInt8]?
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            shown = executor.sync { seen.lastImage?.firstPixel }
            if shown == want { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(shown == want)
        #expect(executor.sync { seen.stale }.isEmpty, "events of replaced bindings reached their handlers")
        #expect(executor.sync { seen.wrongImages }.isEmpty, "a binding got another URL's image")
        await kit.tearDown()
    }

    /// The staleness check itself: an event already posted to the UI executor when the slot is
    /// rebound is dropped there, never handed to the new binding.
    @Test func anEventOnItsWayWhenTheSlotIsReboundNeverReachesTheNewBinding() async throws {
        let kit = try await ManagerTestKit.make()
        var drip = StubResponse.ok(TestPNG.solid(width: 64, height: 64, rgba: (1, 1, 1, 255)))
        drip.bytesPerSecond = 2_000
        drip.chunkSize = 64
        kit.server.route("/a.png", drip)
        var late = StubResponse.ok(TestPNG.solid(width: 8, height: 8, rgba: (2, 2, 2, 255)))
        late.firstByteDelay = .seconds(20)  // the new binding gets nothing of its own meanwhile
        kit.server.route("/b.png", late)
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let a = LoadRecorder(), b = LoadRecorder()
        executor.sync { slot.setImage(with: ImageRequest(url: kit.server.url("/a.png"))) { a.record($0) } }
        #expect(await a.wait(count: 1))  // the first binding's progress flows
        executor.sync {
            Thread.sleep(forTimeInterval: 0.2)  // its next progress is posted meanwhile, queued behind this
            slot.setImage(with: ImageRequest(url: kit.server.url("/b.png"))) { b.record($0) }
        }
        try await Task.sleep(for: .milliseconds(100))
        executor.sync {}  // whatever was queued has run
        #expect(b.all.isEmpty, "the new binding got \(b.all.count) events of the old one")
        executor.sync { slot.cancelCurrentImageLoad() }
        await kit.tearDown()
    }

    @Test func aNilURLFailsAtOnce() async throws {
        let kit = try await ManagerTestKit.make()
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let done = LoadRecorder()
        executor.sync { slot.setImage(with: ImageRequest(url: nil)) { done.record($0) } }
        #expect(done.all.count == 1)
        #expect(done.all.last?.error == .invalidURL(""))
        await kit.tearDown()
    }

    @Test func theHandlerGetsTheImage() async throws {
        let kit = try await ManagerTestKit.make()
        kit.serve("/a.png", color: (4, 5, 6, 255))
        let executor = QueueUIExecutor()
        let slot = executor.sync { ImageSlot(manager: kit.manager, executor: executor) }
        let done = LoadRecorder()
        executor.sync { slot.setImage(with: ImageRequest(url: kit.server.url("/a.png"))) { done.recordLoad($0) } }
        #expect(await done.wait(count: 1))
        #expect(done.all.first?.image?.firstPixel == [4, 5, 6, 255])
        #expect(done.all.first?.isTerminal == true)
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
