import Foundation
import Locking
import Testing
@testable import WebImage

/// The one callback-to-async bridge, in both its forms.
struct ResumeOnceTests {
    @Test func theThrowingFormResumesOnceAndCancelsItsWork() async throws {
        let value = try await ResumeOnce<Int>().run { finish in
            finish(.success(1))
            finish(.success(2))  // ignored
            return nil
        }
        #expect(value == 1)
        let work = Work()
        let task = Task {
            try await ResumeOnce<Int>().run { _ in
                work.started.withLock { $0 = true }
                return work  // never finishes by itself
            }
        }
        while !work.started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(work.cancelled.withLock { $0 })
    }

    @Test func theWaitingFormReturnsTheFirstValueWhateverTheTask() async {
        #expect(await ResumeOnce<Int>.wait { finish in
            DispatchQueue.global().async {
                finish(3)
                finish(4)  // ignored
            }
        } == 3)
        let task = Task {
            await ResumeOnce<Int>.wait { finish in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { finish(5) }
            }
        }
        task.cancel()  // a store cannot be cancelled: the wait still ends with its value
        #expect(await task.value == 5)
    }
}

private final class Work: Cancellable {
    let started = Locked(false)
    let cancelled = Locked(false)
    func cancel() { cancelled.withLock { $0 = true } }
}
