import Foundation
import Synchronization

/// One `prefetchURLs` call: its counters and its cancellation.
public final class PrefetchToken: Sendable {
    private struct State {
        var next = 0
        var finished = 0
        var skipped = 0
        var failed = 0
        var running: [Int: CombinedOperation] = [:]
        var cancelled = false
        var done = false
    }

    /// The URLs, in order.
    public let urls: [URL]
    private let manager: ImageManager
    private let options: ImageManagerOptions
    private let context: ImageLoadContext
    private let width: Int
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let completed: (@Sendable (Int, Int) -> Void)?
    private let state = Mutex(State())

    init(urls: [URL], manager: ImageManager, options: ImageManagerOptions, context: ImageLoadContext, width: Int,
         progress: (@Sendable (Int, Int) -> Void)?, completed: (@Sendable (Int, Int) -> Void)?) {
        self.urls = urls
        self.manager = manager
        self.options = options
        self.context = context
        self.width = width
        self.progress = progress
        self.completed = completed
    }

    /// URLs downloaded (or failed) by this prefetch.
    public var finishedCount: Int { state.withLock { $0.finished } }
    /// URLs skipped because the cache already had them.
    public var skippedCount: Int { state.withLock { $0.skipped } }
    /// URLs whose load failed (counted in `finishedCount` too).
    public var failedCount: Int { state.withLock { $0.failed } }
    /// Whether every URL is done or the prefetch was cancelled.
    public var isDone: Bool { state.withLock { $0.done || $0.cancelled } }

    /// Stops the prefetch: loads in flight are cancelled (their transfers stop unless an on-screen
    /// load joined them), no callback follows.
    public func cancel() {
        let running = state.withLock { state -> [CombinedOperation] in
            state.cancelled = true
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        for operation in running { operation.cancel() }
    }

    func start() {
        if urls.isEmpty {
            state.withLock { $0.done = true }
            completed?(0, 0)
            return
        }
        for _ in 0..<width { startNext() }
    }

    /// Starts the next URL that is not cached yet; cached ones are counted as skipped on the way
    /// (a loop, not recursion: a long run of cached URLs must not grow the stack).
    private func startNext() {
        while let index = claimNext() {
            let url = urls[index]
            if isCached(url) {
                if record(index, skipped: true, failed: false) { return }
                continue
            }
            var loadOptions = options
            loadOptions.insert(.fromLoaderOnly)
            let operation = manager.loadImage(with: url, options: loadOptions, context: context) { [self] result in
                guard result.isFinished else { return }
                if !record(index, skipped: false, failed: result.error != nil) { startNext() }
            }
            state.withLock { state in
                if !operation.isFinished && !state.cancelled { state.running[index] = operation }
            }
            return
        }
    }

    /// Whether the cache already holds `url`: its bytes on disk, or the image at this prefetch's
    /// target size in memory (the only copy when the disk cache is off).
    private func isCached(_ url: URL) -> Bool {
        let key = manager.cacheKey(for: url)
        if manager.cache.disk?.contains(key: key) == true { return true }
        return manager.cache.memory.image(forKey: ImageCacheKey(urlKey: key, targetSize: context.targetSize)) != nil
    }

    private func claimNext() -> Int? {
        state.withLock { state in
            guard !state.cancelled, state.next < urls.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Counts one URL as done; returns true when the prefetch is over (all done or cancelled).
    private func record(_ index: Int, skipped: Bool, failed: Bool) -> Bool {
        let outcome = state.withLock { state -> (done: Int, finished: Int, skipped: Int, all: Bool)? in
            guard !state.cancelled else { return nil }
            state.running[index] = nil
            if skipped { state.skipped += 1 } else { state.finished += 1 }
            if failed { state.failed += 1 }
            let done = state.finished + state.skipped
            if done == urls.count { state.done = true }
            return (done, state.finished, state.skipped, done == urls.count)
        }
        guard let outcome else { return true }
        progress?(outcome.done, urls.count)
        if outcome.all { completed?(outcome.finished, outcome.skipped) }
        return outcome.all
    }
}
