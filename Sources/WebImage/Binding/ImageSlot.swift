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
    /// Called on the executor with download progress of the current binding.
    public var onProgress: ((_ received: Int64, _ expected: Int64) -> Void)?

    private var operations: [String: CombinedOperation] = [:]
    private var generations: [String: UInt64] = [:]
    /// Completion handlers by operation key; kept here (on the executor) so that the background
    /// callbacks never carry UI closures across threads.
    private var completions: [String: (ImageLoadResult) -> Void] = [:]

    /// Creates a slot.
    public init(manager: ImageManager = .shared, executor: any UIExecutor) {
        self.manager = manager
        self.executor = executor
    }

    /// Binds the slot to `request.url`: cancels the previous load under `operationKey`, clears the image,
    /// loads, and assigns the image when it comes (unless `.avoidAutoSetImage`: then only `completed`
    /// gets it). `completed` runs once, for the finished result — and also for partial images with
    /// `.avoidAutoSetImage` — never for a stale binding. (No placeholder image: the gallery draws its
    /// placeholders as text.)
    public func setImage(
        with request: ImageRequest, operationKey: String = ImageSlot.defaultOperationKey,
        completed: ((ImageLoadResult) -> Void)? = nil
    ) {
        let url = request.url, options = request.options
        cancelImageLoad(forKey: operationKey)
        let current = generations[operationKey, default: 0]
        self.url = url
        assign(nil)
        guard url != nil else {
            completed?(ImageLoadResult(url: nil, error: .invalidURL("")))
            return
        }
        let executor = self.executor
        // Progress and partial images are coalesced: at most one of each is on its way to the UI
        // thread per load, carrying the newest (a body of 1-byte chunks once queued millions).
        let newestProgress = NewestOnly<(Int64, Int64)>()
        let progress: DownloadProgressHandler = { [weak self] received, expected, _ in
            guard newestProgress.offer((received, expected)) else { return }
            executor.run { [weak self] in
                guard let (received, expected) = newestProgress.take() else { return }
                guard let self, self.generations[operationKey] == current else { return }
                self.onProgress?(received, expected)
            }
        }
        completions[operationKey] = completed
        let newestPartial = NewestOnly<ImageLoadResult>()
        let operation = manager.loadImage(with: request, progress: progress) { [weak self] result in
            if !result.isFinished && result.error == nil && !result.isRevalidating && !result.isNotModified {
                guard newestPartial.offer(result) else { return }
                executor.run { [weak self] in
                    guard let partial = newestPartial.take() else { return }
                    guard let self, self.generations[operationKey] == current else { return }
                    self.handle(partial, options: options, key: operationKey)
                }
                return
            }
            executor.run { [weak self] in
                guard let self, self.generations[operationKey] == current else { return }
                self.handle(result, options: options, key: operationKey)
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

    private func handle(_ result: ImageLoadResult, options: ImageRequest.Options, key: String) {
        let completed = completions[key]
        let autoSet = !options.contains(.avoidAutoSetImage)
        if let image = result.image, autoSet { assign(image) }
        if result.isFinished || !autoSet { completed?(result) }
    }
}
