import Foundation
import ImageCodecs

/// A place that shows one image — a gallery cell — bound to at most one load (SDWebImage's
/// `UIView+WebCacheOperation` + `UIImageView+WebCache`, without the image view: the caller shows
/// what the events bring). Rebinding cancels the previous load; an event of an older binding never
/// reaches the caller (the one staleness check).
///
/// Confined to its UI executor: create it, call it and read it there only. Events are delivered
/// there too (inline when the manager's callback already runs there).
///
/// ```swift
/// slot.setImage(with: ImageRequest(url: url, targetSize: cellPixels, priority: .high, delivery: .progressiveLoad)) { event in
///     if case .finished(.success(let loaded)) = event { cell.show(loaded.image) }
/// }
/// slot.cancelCurrentImageLoad()   // the cell left the screen
/// ```
public final class ImageSlot: @unchecked Sendable {  // state touched only on `executor` (see above)
    private let manager: ImageManager
    private let executor: any UIExecutor
    private var operation: CombinedOperation?
    /// Bumped by every `setImage` and cancel; events of older generations are dropped.
    private var generation: UInt64 = 0
    /// The current binding's handler; kept here (on the executor) so that the background callbacks
    /// never carry UI closures across threads.
    private var handler: ((ImageLoadEvent) -> Void)?

    /// Creates a slot.
    public init(manager: ImageManager = .shared, executor: any UIExecutor) {
        self.manager = manager
        self.executor = executor
    }

    /// Binds the slot to `request.url`: cancels the previous load and loads. `onEvent` gets the load's
    /// events on the executor — progress and partial images coalesced (only the newest of each is
    /// on its way at a time), a cached image under revalidation, the terminal event — never one of a
    /// binding that was cancelled or replaced. A missing URL fails at once. (No placeholder image:
    /// the gallery draws its placeholders as text.)
    public func setImage(with request: ImageRequest, onEvent: @escaping (ImageLoadEvent) -> Void) {
        cancelCurrentImageLoad()
        let current = generation
        guard request.url != nil else {
            onEvent(.finished(.failure(.invalidURL(""))))
            return
        }
        handler = onEvent
        let executor = self.executor
        // Progress and partial images are coalesced: at most one of each is on its way to the UI
        // thread per load, carrying the newest (a body of 1-byte chunks once queued millions).
        let newestProgress = NewestOnly<ImageLoadEvent>(), newestPreview = NewestOnly<ImageLoadEvent>()
        let operation = manager.loadImage(with: request) { [weak self] event in
            let coalesced: NewestOnly<ImageLoadEvent>?
            switch event {
            case .progress: coalesced = newestProgress
            case .preview: coalesced = newestPreview
            case .revalidating, .keptCached, .finished: coalesced = nil
            }
            if let coalesced, !coalesced.offer(event) { return }  // the delivery on its way takes it
            executor.run { [weak self] in
                let newest = coalesced == nil ? event : coalesced?.take()
                guard let newest, let self, self.generation == current else { return }
                self.handler?(newest)
            }
        }
        if !operation.isFinished { self.operation = operation }
    }

    /// Cancels the load, and makes any event already on its way stale.
    public func cancelCurrentImageLoad() {
        generation &+= 1
        handler = nil
        operation?.cancel()
        operation = nil
    }
}
