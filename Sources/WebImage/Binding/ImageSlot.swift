import Foundation
import ImageCodecs

/// A place that shows one image — a gallery cell — bound to at most one load per operation key
/// (SDWebImage's `UIView+WebCacheOperation` + `UIImageView+WebCache`). Rebinding cancels the
/// previous load; a completion from an older binding never assigns anything.
///
/// Confined to its UI executor: create it, call it and read it there only. Assignments and
/// completions are delivered there too (inline when the callback already runs there).
///
/// ```swift
/// slot.onImageChange = { image in model.setImage(image, forSlot: id) }
/// slot.setImage(with: ImageRequest(url: url, targetSize: cellPixels, priority: .high, options: .progressiveLoad))
/// slot.cancelCurrentImageLoad()   // the cell left the screen
/// ```
public final class ImageSlot: @unchecked Sendable {  // state touched only on `executor` (see above)
    /// The key of the main image load.
    public static let defaultOperationKey = "image"

    /// The manager that loads.
    public let manager: ImageManager
    /// Where assignments and completions run.
    public let executor: any UIExecutor
    /// The image shown now (partial or final; kept by a cancel, cleared by a rebind).
    public private(set) var image: Image?
    /// The URL of the current binding.
    public private(set) var url: URL?
    /// Bumped by every `setImage` and cancel of the main key; completions of older generations are
    /// dropped.
    public var generation: UInt64 { generations[Self.defaultOperationKey] ?? 0 }
    /// Called on the executor whenever `image` changes (the view redraws).
    public var onImageChange: ((Image?) -> Void)?

    private var operations: [String: CombinedOperation] = [:]
    private var generations: [String: UInt64] = [:]
    /// Completion handlers by operation key; kept here (on the executor) so that the background
    /// callbacks never carry UI closures across threads.
    private var completions: [String: (ImageLoadEvent) -> Void] = [:]

    /// Creates a slot.
    public init(manager: ImageManager = .shared, executor: any UIExecutor) {
        self.manager = manager
        self.executor = executor
    }

    /// Binds the slot to `request.url`: cancels the previous load under `operationKey`, clears the image,
    /// loads, and assigns the image when it comes (unless `.avoidAutoSetImage`: then only `completed`
    /// gets it). `completed` gets the load's events — progress (the newest, coalesced), a cached
    /// image under revalidation, the terminal event, and partial images too with `.avoidAutoSetImage`
    /// — never for a stale binding. (No placeholder image: the gallery draws its
    /// placeholders as text.)
    public func setImage(
        with request: ImageRequest, operationKey: String = ImageSlot.defaultOperationKey,
        completed: ((ImageLoadEvent) -> Void)? = nil
    ) {
        let url = request.url, options = request.options
        cancelImageLoad(forKey: operationKey)
        let current = generations[operationKey, default: 0]
        self.url = url
        assign(nil)
        guard url != nil else {
            completed?(.finished(.failure(.invalidURL(""))))
            return
        }
        let executor = self.executor
        // Progress and partial images are coalesced: at most one of each is on its way to the UI
        // thread per load, carrying the newest (a body of 1-byte chunks once queued millions).
        let newestProgress = NewestOnly<ImageLoadEvent>(), newestPreview = NewestOnly<ImageLoadEvent>()
        completions[operationKey] = completed
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
                guard let newest, let self, self.generations[operationKey] == current else { return }
                self.handle(newest, options: options, key: operationKey)
            }
        }
        if !operation.isFinished { operations[operationKey] = operation }
    }

    /// Cancels the main load; the image shown stays.
    public func cancelCurrentImageLoad() { cancelImageLoad(forKey: Self.defaultOperationKey) }

    /// Cancels the load under `key`, and makes any completion already on its way stale.
    public func cancelImageLoad(forKey key: String) {
        generations[key, default: 0] &+= 1
        completions[key] = nil
        operations.removeValue(forKey: key)?.cancel()
    }

    private func assign(_ image: Image?) {
        self.image = image
        onImageChange?(image)
    }

    private func handle(_ event: ImageLoadEvent, options: ImageRequest.Options, key: String) {
        let completed = completions[key]
        let autoSet = !options.contains(.avoidAutoSetImage)
        switch event {
        case .progress:
            completed?(event)
        case .preview(let image):
            if autoSet { assign(image) } else { completed?(event) }
        case .revalidating(let hit), .finished(.success(let hit)):
            if autoSet { assign(hit.image) }
            completed?(event)
        case .keptCached, .finished(.failure):
            completed?(event)
        }
    }
}
