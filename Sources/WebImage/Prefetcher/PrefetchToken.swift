import Foundation
import Locking

/// One `prefetchURLs` call: its counters and its cancellation.
public final class PrefetchToken: Cancellable {
    private struct State {
        var finished = 0
        var skipped = 0
        var running: [Int: (operation: CombinedOperation, slot: SlotRelease)] = [:]
        var cancelled = false
        var done = false
    }

    /// The URLs, in order.
    public let urls: [URL]
    private let manager: ImageManager
    /// Every load's request but its URL (`ImagePrefetcher`'s template: low priority, from the loader).
    private let template: ImageRequest
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let completed: (@Sendable (Int, Int) -> Void)?
    private let state = Locked(State())

    init(urls: [URL], manager: ImageManager, template: ImageRequest,
         progress: (@Sendable (Int, Int) -> Void)?, completed: (@Sendable (Int, Int) -> Void)?) {
        self.urls = urls
        self.manager = manager
        self.template = template
        self.progress = progress
        self.completed = completed
    }

    /// URLs downloaded (or failed) by this prefetch.
    public var finishedCount: Int { state.withLock { $0.finished } }
    /// URLs skipped because the cache already had them.
    public var skippedCount: Int { state.withLock { $0.skipped } }
    /// Whether every URL is done or the prefetch was cancelled.
    public var isDone: Bool { state.withLock { $0.done || $0.cancelled } }
    /// Whether a load of this prefetch has started (or ended): false while every URL still waits
    /// for a free prefetch slot.
    public var hasStarted: Bool { state.withLock { !$0.running.isEmpty || $0.finished + $0.skipped > 0 } }

    /// Stops the prefetch: loads in flight are cancelled (their transfers stop unless an on-screen
    /// load joined them), queued ones never start, no callback follows.
    public func cancel() {
        let running = state.withLock { state -> [(operation: CombinedOperation, slot: SlotRelease)] in
            state.cancelled = true
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        for entry in running {
            entry.operation.cancel()
            entry.slot.fire()  // a cancelled load never calls back: give its slot back here
        }
    }

    func finishEmpty() {
        state.withLock { $0.done = true }
        completed?(0, 0)
    }

    /// Loads URL `index` (or counts it skipped when cached); `release` runs once the load ends.
    /// Returns false when nothing was started (skipped, or cancelled), and then never calls `release`.
    func load(_ index: Int, release: @escaping @Sendable () -> Void) -> Bool {
        let url = urls[index]
        if isCached(url) {
            record(index, skipped: true)
            return false
        }
        var request = template
        request.url = url
        let slot = SlotRelease(release)
        let operation = manager.loadImage(with: request) { [self] event in
            switch event {
            case .progress, .preview, .revalidating: return
            case .keptCached, .finished: break  // a failed URL counts as done too
            }
            record(index, skipped: false)
            slot.fire()
        }
        let keep = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            if !operation.isFinished { state.running[index] = (operation, slot) }
            return true
        }
        if !keep {
            operation.cancel()
            slot.fire()
        }
        return true
    }

    /// Whether the cache already holds `url`: its bytes on disk, or the image at this prefetch's
    /// target size in memory (the only copy when the disk cache is off).
    private func isCached(_ url: URL) -> Bool {
        let key = manager.cacheKey(for: url)
        if manager.cache.disk?.contains(key: key) == true { return true }
        return manager.cache.memory.image(forKey: ImageCacheKey(urlKey: key, targetSize: template.targetSize,
                                                                           firstFrameOnly: template.delivery.contains(.decodeFirstFrameOnly))) != nil
    }

    private func record(_ index: Int, skipped: Bool) {
        let outcome = state.withLock { state -> (done: Int, finished: Int, skipped: Int, all: Bool)? in
            guard !state.cancelled else { return nil }
            state.running[index] = nil
            if skipped { state.skipped += 1 } else { state.finished += 1 }
            let done = state.finished + state.skipped
            if done == urls.count { state.done = true }
            return (done, state.finished, state.skipped, done == urls.count)
        }
        guard let outcome else { return }
        progress?(outcome.done, urls.count)
        if outcome.all { completed?(outcome.finished, outcome.skipped) }
    }
}

/// Gives a prefetch slot back exactly once, whoever ends the load first (its completion or a cancel).
final class SlotRelease: Sendable {
    private let release: Locked<(@Sendable () -> Void)?>

    init(_ release: @escaping @Sendable () -> Void) { self.release = Locked(release) }

    func fire() {
        let once = release.withLock { r in
            defer { r = nil }
            return r
        }
        once?()
    }
}
