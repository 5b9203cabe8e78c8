#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that is only reached under a lock: the one lock type of the code base.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex system calls that
/// ThreadSanitizer cannot see, so `swift test --sanitize=thread` reports every access it protects as
/// a race (a ten-line program with two threads appending to a `Mutex<[Int]>` gets three reports).
/// `pthread_mutex_t` is intercepted by every sanitizer, costs the same uncontended (~20 ns), and keeps
/// `make test-tsan` meaningful.
///
/// The API mirrors `Mutex`: `withLock` hands the closure exclusive `inout` access.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init(_ initialValue: sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// Runs `body` with the value while holding the lock (not reentrant: never call `withLock` on
    /// the same instance from inside `body`).
    @inline(__always)
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Like `withLock`, but first waits, the lock released meanwhile, until `ready` holds for the
    /// value; `broadcast()` (after a change under the lock) wakes the waiters to look again. With
    /// `wakingAfter`, a waiter also looks again once that many seconds have passed (for a `ready`
    /// that depends on time).
    public func withLock<Result>(
        when ready: (inout sending Value) -> Bool, wakingAfter seconds: Double? = nil, _ body: (inout sending Value) -> sending Result
    ) -> sending Result {
        var deadline = timespec()
        if let seconds {
            clock_gettime(CLOCK_REALTIME, &deadline)
            let nanoseconds = Int(deadline.tv_nsec) + Int(max(0, seconds) * 1e9)
            deadline.tv_sec += nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(&value) {
            if seconds == nil { pthread_cond_wait(condition, mutex) } else { pthread_cond_timedwait(condition, mutex, &deadline) }
        }
        return body(&value)
    }

    /// Wakes every `withLock(when:_:)` waiting on this value.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
