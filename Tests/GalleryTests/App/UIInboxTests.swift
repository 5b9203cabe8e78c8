import Foundation
import Locking
import Testing
@testable import Gallery

@Suite struct UIInboxTests {
    @Test func postsFromManyThreadsWakeThePollAndArriveInOrderPerThread() throws {
        let inbox = try UIInbox<Int>()
        var fds = [pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 0) == 0)
        let group = DispatchGroup()
        for thread in 0..<4 {
            let t = Thread {
                for i in 0..<1000 { inbox.post(thread * 10_000 + i) }
                group.leave()
            }
            group.enter()
            t.start()
        }
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(poll(&fds, 1, 1000) == 1)
        let events = inbox.drain()
        #expect(events.count == 4000)
        for thread in 0..<4 {
            let mine = events.filter { $0 / 10_000 == thread }
            #expect(mine == mine.sorted())
        }
        fds[0].revents = 0
        #expect(poll(&fds, 1, 0) == 0)  // drained: no spurious wake-up
        #expect(inbox.drain().isEmpty)
    }

    @Test func knowsItsOwnerThread() throws {
        let inbox = try UIInbox<Int>()
        #expect(!inbox.isOwnerThread)
        inbox.claimOwnership()
        #expect(inbox.isOwnerThread)
        let other = DispatchSemaphore(value: 0)
        let seen = Locked<Bool>(true)
        Thread {
            seen.withLock { $0 = inbox.isOwnerThread }
            other.signal()
        }.start()
        #expect(other.wait(timeout: .now() + 5) == .success)
        #expect(seen.withLock { $0 } == false)
    }

    @Test func aBatchOfPostsCostsOneWakeByteAndThePipeIsCloseOnExec() throws {
        let inbox = try UIInbox<Int>()
        for i in 0..<1000 { inbox.post(i) }
        var buffer = [UInt8](repeating: 0, count: 2048)
        #expect(read(inbox.wakeDescriptor, &buffer, buffer.count) == 1)
        #expect(inbox.drain().count == 1000)
        inbox.post(1)
        #expect(read(inbox.wakeDescriptor, &buffer, buffer.count) == 1)  // the next batch wakes again
        for fd in [inbox.wakeDescriptor, inbox.wakeWriteDescriptor] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        }
    }
}
