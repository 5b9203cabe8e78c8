/// Something in flight that can be stopped: a load, a cache query, a download handler, a prefetch.
/// After `cancel()` returns, its callbacks are not called (each type documents the exceptions).
public protocol Cancellable: AnyObject, Sendable {
    /// Stops the work; calling it again does nothing.
    func cancel()
}
