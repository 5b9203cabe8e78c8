import Foundation
import Synchronization

/// Warms the cache at low priority (SDWebImagePrefetcher): a bounded number of loads at once,
/// URLs already on disk skipped. Stores to disk, and to memory only if the context asks.
/// An on-screen load of a URL being prefetched joins its transfer (the downloader coalesces by URL)
/// and raises its priority instead of starting a second one.
///
/// ```swift
/// let token = prefetcher.prefetchURLs(nextScreen) { finished, skipped in print(finished, skipped) }
/// token.cancel()   // the user scrolled the other way
/// ```
public final class ImagePrefetcher: Sendable {
    /// The manager that loads.
    public let manager: ImageManager
    /// Loads at once (default 3).
    public let maxConcurrentPrefetchCount: Int
    /// Manager options for every prefetch (`.lowPriority` is always added).
    public let options: ImageManagerOptions

    private let tokens = Mutex<[PrefetchToken]>([])

    /// Creates a prefetcher.
    public init(manager: ImageManager = .shared, maxConcurrentPrefetchCount: Int = 3, options: ImageManagerOptions = []) {
        self.manager = manager
        self.maxConcurrentPrefetchCount = max(1, maxConcurrentPrefetchCount)
        self.options = options.union(.lowPriority)
    }

    /// Prefetches `urls`; `completed` runs once all are done (finished, skipped) unless cancelled.
    /// `context.storeInMemory` defaults to false here: prefetched images go to disk only.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL], context: ImageLoadContext = ImageLoadContext(storeInMemory: false),
        completed: (@Sendable (_ finished: Int, _ skipped: Int) -> Void)? = nil
    ) -> PrefetchToken {
        start(urls, context: context, progress: nil, completed: completed)
    }

    /// Prefetches `urls`, reporting `progress` (URLs done, total) after each one. Both closures are
    /// required here so that a lone trailing closure always means `completed` in the other form.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL], context: ImageLoadContext = ImageLoadContext(storeInMemory: false),
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void,
        completed: @escaping @Sendable (_ finished: Int, _ skipped: Int) -> Void
    ) -> PrefetchToken {
        start(urls, context: context, progress: progress, completed: completed)
    }

    private func start(
        _ urls: [URL], context: ImageLoadContext, progress: (@Sendable (Int, Int) -> Void)?,
        completed: (@Sendable (Int, Int) -> Void)?
    ) -> PrefetchToken {
        let token = PrefetchToken(urls: urls, manager: manager, options: options, context: context,
                                  width: maxConcurrentPrefetchCount, progress: progress, completed: completed)
        tokens.withLock { list in
            list.removeAll { $0.isDone }
            list.append(token)
        }
        token.start()
        return token
    }

    /// Cancels every prefetch of this prefetcher.
    public func cancelPrefetching() {
        let all = tokens.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for token in all { token.cancel() }
    }
}
