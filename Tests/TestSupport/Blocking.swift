import Foundation

/// Runs blocking work (waiting on a child process, polling a tmux pane) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core — two here — and every in-process loopback
/// server of every parallel test needs it. A test that blocks a pool thread for seconds starves
/// them all; awaiting `Blocking.run` keeps the pool free.
public enum Blocking {
    /// Runs `work` on a new thread and returns (or throws) what it does.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.name = "sdgallery.test.blocking"
            thread.start()
        }
    }
}
