#if canImport(Glibc)
import Glibc
#endif
import Locking

/// The process-wide budget of the memory decodes work in (`--memory-limit`): full-size pixel
/// buffers, a progressive JPEG's coefficients, animation canvases and kept frames. Every decoder
/// reserves its working bytes from the header, before the library allocates them, and gives them
/// back when it ends, so many large images at once take turns instead of adding up (12 PNGs of
/// 10000×9999 wanted 2.4 GB at once).
///
/// Two kinds of reservation, so that no decode waits on work queued behind itself:
/// - a **one-shot** decode (`reserve`) waits until its bytes fit; when only incremental decodes hold
///   the rest it waits at most `incrementalPatience` (1 s: they may be queued behind it, on its own
///   lane or for the pool's threads) and then runs anyway. One-shot decodes run to their end without
///   waiting on anything, so every wait ends. Memory stays under the limit, and under twice it while
///   an incremental decode that holds memory is slower than the patience;
/// - an **incremental** decode, fed as bytes arrive (`tryReserve`), never waits: when its bytes do
///   not fit now it does not start, and the image is decoded one-shot once its bytes are in.
/// A decode that alone needs more than the limit fails with `DecodeError.overMemoryBudget`.
public final class DecodeMemory: Sendable, Hashable, CustomStringConvertible {
    /// The budget of every decode that does not name another (`DecodeOptions.memory`).
    public static let shared = DecodeMemory(limit: defaultLimit)

    /// A quarter of the machine's memory, at most 1 GiB (at least 64 MiB).
    public static var defaultLimit: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return 1 << 30 }
        return max(64 << 20, min(1 << 30, pages * size / 4))
    }

    private struct State {
        var limit: Int
        var held = 0
        var oneShots = 0
        var peak = 0
    }

    private let state: Locked<State>

    /// Creates a budget of `limit` bytes.
    public init(limit: Int, incrementalPatience: Double = 1) {
        state = Locked(State(limit: max(1, limit)))
        self.incrementalPatience = incrementalPatience
    }

    /// Most bytes decodes may hold at once.
    public var limit: Int {
        get { state.withLock { $0.limit } }
        set {
            state.withLock { $0.limit = max(1, newValue) }
            state.broadcast()
        }
    }

    /// Bytes held now.
    public var held: Int { state.withLock { $0.held } }

    /// Most bytes held at once so far.
    public var peak: Int { state.withLock { $0.peak } }

    /// A one-shot decode's reservation: waits as described above. Throws `overMemoryBudget` when
    /// `bytes` alone exceed the limit.
    func reserve(_ bytes: Int) throws(DecodeError) -> Reservation {
        let bytes = max(0, bytes)
        let limit = self.limit
        guard bytes <= limit else { throw DecodeError.overMemoryBudget(needed: bytes, limit: limit) }
        let started = Self.seconds()
        let patience = incrementalPatience
        state.withLock(when: { $0.held + bytes <= $0.limit || ($0.oneShots == 0 && Self.seconds() - started >= patience) },
                       wakingAfter: patience) { s in
            s.held += bytes
            s.oneShots += 1
            s.peak = max(s.peak, s.held)
        }
        return Reservation(memory: self, bytes: bytes, oneShot: true)
    }

    /// An incremental decode's reservation: nil when `bytes` do not fit now.
    func tryReserve(_ bytes: Int) -> Reservation? {
        let bytes = max(0, bytes)
        let granted = state.withLock { s -> Bool in
            guard s.held + bytes <= s.limit else { return false }
            s.held += bytes
            s.peak = max(s.peak, s.held)
            return true
        }
        return granted ? Reservation(memory: self, bytes: bytes, oneShot: false) : nil
    }

    /// More bytes for a reservation that holds already, waiting as a one-shot decode does (`reserve`).
    fileprivate func growWaiting(by bytes: Int) {
        let started = Self.seconds()
        let patience = incrementalPatience
        state.withLock(when: { $0.held + bytes <= $0.limit || ($0.oneShots == 0 && Self.seconds() - started >= patience) },
                       wakingAfter: patience) { s in
            s.held += bytes
            s.peak = max(s.peak, s.held)
        }
    }

    /// More bytes for a reservation that holds already (an animation's next frame): never waits.
    fileprivate func grow(by bytes: Int) -> Bool {
        state.withLock { s -> Bool in
            guard s.held + bytes <= s.limit else { return false }
            s.held += bytes
            s.peak = max(s.peak, s.held)
            return true
        }
    }

    fileprivate func release(_ bytes: Int, oneShot: Bool) {
        state.withLock { s in
            s.held -= bytes
            if oneShot { s.oneShots -= 1 }
        }
        state.broadcast()
    }

    /// Seconds a one-shot decode waits for memory that only incremental decodes hold (they may be
    /// queued behind it, so it does not wait for ever; most end within it and give their bytes back).
    let incrementalPatience: Double

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    public static func == (a: DecodeMemory, b: DecodeMemory) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "DecodeMemory(limit: \(limit >> 20) MB)" }

    /// Bytes one decode holds; given back when it is released (at the decode's end, or when its
    /// owner goes away).
    final class Reservation {
        private let memory: DecodeMemory
        private var oneShot: Bool
        /// Bytes held.
        private(set) var bytes: Int

        fileprivate init(memory: DecodeMemory, bytes: Int, oneShot: Bool) {
            self.memory = memory
            self.bytes = bytes
            self.oneShot = oneShot
        }

        /// Holds `extra` bytes more if they fit now (never waits).
        func grow(by extra: Int) -> Bool {
            guard extra > 0 else { return true }
            guard memory.grow(by: extra) else { return false }
            bytes += extra
            return true
        }

        /// Holds `extra` bytes more, waiting for them as a one-shot decode waits (`reserve`): an
        /// incremental decode that gave bytes back (`shrink`) and must go on to its end.
        func growWaiting(by extra: Int) {
            guard extra > 0 else { return }
            memory.growWaiting(by: extra)
            bytes += extra
        }

        /// Gives back all but `kept` bytes (a decode that needs less for a while): they are free for
        /// others at once.
        func shrink(to kept: Int) {
            let kept = max(0, kept)
            guard kept < bytes else { return }
            memory.release(bytes - kept, oneShot: false)
            bytes = kept
        }

        /// Keeps the bytes after the one-shot decode that reserved them ends, for as long as the
        /// reservation lives (a streamed animation's canvases, held with its image): one-shot decodes
        /// waiting for memory count them from then on as they count an incremental decode's, so none
        /// waits for ever on an image a cache holds.
        func keepAfterDecode() {
            guard oneShot else { return }
            memory.release(0, oneShot: true)
            oneShot = false
        }

        deinit { memory.release(bytes, oneShot: oneShot) }
    }
}
