import Locking

/// A mailbox of one: values produced faster than the UI thread takes them (download progress, partial
/// images) keep only the newest. `offer` returns true when no delivery is pending, so exactly one
/// delivery is on its way at a time; that delivery `take`s whatever is newest when it runs. However
/// fast the network, a load has at most one such update queued for the UI thread.
final class NewestOnly<Value: Sendable>: Sendable {
    private let slot = Locked<Value?>(nil)

    /// Stores `value` (replacing an undelivered one); true when the caller must schedule a delivery.
    func offer(_ value: Value) -> Bool {
        slot.withLock { stored in
            let idle = stored == nil
            stored = value
            return idle
        }
    }

    /// The newest value, which is then delivered (nil when a delivery already took it).
    func take() -> Value? {
        slot.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }
}
