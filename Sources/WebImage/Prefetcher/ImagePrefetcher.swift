import DequeModule
import Foundation
import ImageCodecs
import Locking

/// Warms the cache at low priority (SDWebImagePrefetcher). At most `maxConcurrentPrefetchCount`
/// prefetch loads run at once across every `prefetchURLs` call, so prefetching never takes more
/// than that many of the downloader's transfer slots from visible loads. URLs already cached are
/// skipped. Each URL loads like the request the caller gives (its cache, delivery and transfer
/// values: the prefetcher keeps none of its own) at `.low` priority. Stores to disk, and to memory
/// only when asked (`storeInMemory`). An on-screen load of a URL being prefetched joins its transfer
/// (the downloader coalesces by URL) and raises its priority instead of starting a second one.
///
/// ```swift
/// let token = prefetcher.prefetchURLs(nextScreen) { finished, skipped in print(finished, skipped) }
/// token.cancel()   // the user scrolled the other way
/// ```
public final class ImagePrefetcher: Sendable {
    /// The manager that loads.
    public let manager: ImageManager
    /// Prefetch loads at once, over all tokens (default 3).
    public let maxConcurrentPrefetchCount: Int

    private struct Scheduler {
        var queue = Deque<(token: PrefetchToken, index: Int)>()
        var running = 0
        var tokens: [PrefetchToken] = []
    }

    private let scheduler = Locked(Scheduler())

    /// Creates a prefetcher.
    public init(manager: ImageManager = .shared, maxConcurrentPrefetchCount: Int = 3) {
        self.manager = manager
        self.maxConcurrentPrefetchCount = max(1, maxConcurrentPrefetchCount)
    }

    /// Prefetches `urls`, each loaded like `request` (its target size, cache, delivery and transfer
    /// values; its URL and priority are the prefetcher's); `completed` runs once all are done
    /// (finished, skipped) unless cancelled. Prefetched images go to disk only unless `storeInMemory`.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL], like request: ImageRequest = ImageRequest(url: nil), storeInMemory: Bool = false,
        completed: (@Sendable (_ finished: Int, _ skipped: Int) -> Void)? = nil
    ) -> PrefetchToken {
        start(urls, template(request, storeInMemory: storeInMemory), progress: nil, completed: completed)
    }

    /// Prefetches `urls`, reporting `progress` (URLs done, total) after each one. Both closures are
    /// required here so that a lone trailing closure always means `completed` in the other form.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL], like request: ImageRequest = ImageRequest(url: nil), storeInMemory: Bool = false,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void,
        completed: @escaping @Sendable (_ finished: Int, _ skipped: Int) -> Void
    ) -> PrefetchToken {
        start(urls, template(request, storeInMemory: storeInMemory), progress: progress, completed: completed)
    }

    /// The request every URL of a prefetch loads with (its URL filled in per load): the caller's, at
    /// `.low` priority, from the loader (the prefetch looked in the cache itself, `PrefetchToken`)
    /// and, unless `storeInMemory`, to disk only.
    private func template(_ request: ImageRequest, storeInMemory: Bool) -> ImageRequest {
        var template = request
        template.priority = .low
        template.cache.read = .none
        if !storeInMemory { template.cache.store = .diskOnly }
        return template
    }

    /// Cancels every prefetch of this prefetcher.
    public func cancelPrefetching() {
        let all = scheduler.withLock { s in
            defer { s.tokens.removeAll(); s.queue.removeAll() }
            return s.tokens
        }
        for token in all { token.cancel() }
    }

    private func start(
        _ urls: [URL], _ template: ImageRequest, progress: (@Sendable (Int, Int) -> Void)?,
        completed: (@Sendable (Int, Int) -> Void)?
    ) -> PrefetchToken {
        let token = PrefetchToken(urls: urls, manager: manager, template: template,
                                  progress: progress, completed: completed)
        if urls.isEmpty {
            token.finishEmpty()
            return token
        }
        scheduler.withLock { s in
            s.tokens.removeAll { $0.isDone }
            s.tokens.append(token)
            for index in urls.indices { s.queue.append((token, index)) }
        }
        pump()
        return token
    }

    /// Starts queued loads while fewer than the limit run. Cached URLs are counted as skipped on the
    /// way without taking a slot (a loop: a long run of cached URLs must not grow the stack).
    private func pump() {
        while let (token, index) = claim() {
            let started = token.load(index) { [self] in
                scheduler.withLock { $0.running -= 1 }
                pump()
            }
            if !started { scheduler.withLock { $0.running -= 1 } }
        }
    }

    /// The next queued item of a live token, with its slot reserved; nil when none or at the limit.
    private func claim() -> (PrefetchToken, Int)? {
        scheduler.withLock { s in
            guard s.running < maxConcurrentPrefetchCount else { return nil }
            while let next = s.queue.popFirst() {
                if next.token.isDone { continue }
                s.running += 1
                return next
            }
            return nil
        }
    }
}
