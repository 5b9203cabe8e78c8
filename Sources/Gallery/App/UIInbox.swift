import Foundation
import CSystem
import Locking

/// The UI thread's mailbox: any thread posts events; the post that finds the queue empty writes one
/// byte to a wake pipe, which the frame loop polls together with stdin, so the UI thread sleeps until
/// there is something to do (one system call per batch of events, not per event).
///
/// ```swift
/// let inbox = try UIInbox<GalleryEvent>()
/// inbox.post(.status { $0.cacheHits += 1 })   // from any thread
/// // UI thread: poll(inbox.wakeDescriptor) … then
/// for event in inbox.drain() { … }
/// ```
public final class UIInbox<Event: Sendable>: Sendable {
    private let queue = Locked<[Event]>([])
    private let owner = Locked<pthread_t?>(nil)
    /// The read end of the wake pipe (poll it for POLLIN).
    public let wakeDescriptor: Int32
    /// The write end of the wake pipe (also handed to signal handlers).
    public let wakeWriteDescriptor: Int32

    /// Creates the inbox and its non-blocking wake pipe.
    public init() throws(InboxError) {
        var fds: [Int32] = [0, 0]
        // Close-on-exec from the start (pipe2): a child started by another thread never inherits it.
        guard sdg_sys_pipe_cloexec_nonblock(&fds) == 0 else { throw InboxError(errno: errno) }
        wakeDescriptor = fds[0]
        wakeWriteDescriptor = fds[1]
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Records the calling thread as the UI thread (the frame loop calls this when it starts).
    public func claimOwnership() {
        let me = pthread_self()
        owner.withLock { $0 = me }
    }

    /// Whether the calling thread is the UI thread that drains this inbox (a `UIExecutor`'s
    /// `isCurrent`).
    public var isOwnerThread: Bool {
        let me = pthread_self()
        return owner.withLock { $0.map { pthread_equal($0, me) != 0 } ?? false }
    }

    /// Queues `event` and wakes the UI thread. Safe from any thread; never blocks (a full pipe
    /// already guarantees a wake-up).
    public func post(_ event: Event) {
        // Only the event that makes the queue non-empty needs a wake-up: `drain` reads the pipe before
        // it takes the queue, so an event added while the queue was non-empty is taken by the drain
        // that the first event's byte causes.
        let wasEmpty = queue.withLock { events in
            events.append(event)
            return events.count == 1
        }
        if wasEmpty { wake() }
    }

    /// Wakes the UI thread without an event.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteDescriptor, &byte, 1)
    }

    /// UI thread: empties the wake pipe and returns the queued events in posting order.
    public func drain() -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeDescriptor, &buffer, buffer.count) > 0 {}
        return queue.withLock { events in
            defer { events.removeAll(keepingCapacity: true) }
            return events
        }
    }
}

/// The wake pipe could not be created.
public struct InboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` of `pipe2()`.
    public var errno: Int32
    /// "cannot create the wake pipe (errno N)".
    public var description: String { "cannot create the wake pipe (errno \(errno))" }
}
