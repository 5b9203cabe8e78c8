import Foundation
import ImageCodecs

/// A `CellImageSource` for local files only: reads and decodes (through `ImageCoders.decode`, at the
/// cell's target size) on two background worker threads, newest visible request first (LIFO),
/// prefetches only when no visible work waits, and keeps recent decodes in a small memory cache.
/// Remote URLs fail with a short message: they need the network layer (ImageManager), which replaces
/// this source in the full product.
public final class LocalFileImageSource: CellImageSource {
    /// Largest file read (bytes); bigger files fail with "file too large".
    public static let maximumFileSize = 256 << 20
    private let queue: LocalLoadQueue

    /// Starts `workers` threads (default 2) and a decoded-image cache of `cacheCost` bytes.
    public init(workers: Int = 2, cacheCost: Int = 128 << 20) {
        queue = LocalLoadQueue(cacheCost: cacheCost)
        for index in 0..<max(1, workers) {
            let thread = Thread { [queue] in queue.workLoop() }
            thread.name = "sdgallery.decode.\(index)"
            thread.start()
        }
    }

    deinit { queue.shutdown() }

    /// Queues a visible load.
    public func bind(slot: SlotID, item: GalleryItem, targetSize: PixelSize, options: CellLoadOptions,
                     onUpdate: @escaping @Sendable (CellImageUpdate) -> Void) {
        guard case .file(let path) = item.entry.location else {
            onUpdate(.failed("remote URLs need the network layer"))
            return
        }
        queue.enqueue(LocalLoadJob(kind: .visible(slot), path: path, target: targetSize, refresh: options.contains(.refresh), deliver: onUpdate))
    }

    /// Cancels the slot's load.
    public func cancel(slot: SlotID) { queue.cancel(.visible(slot)) }

    /// Queues a low-priority decode into the cache.
    public func prefetch(_ request: PrefetchRequest, item: GalleryItem) {
        guard case .file(let path) = item.entry.location else { return }
        queue.enqueue(LocalLoadJob(kind: .prefetch(request), path: path, target: request.target, refresh: false, deliver: nil))
    }

    /// Cancels a prefetch that has not started.
    public func cancelPrefetch(_ request: PrefetchRequest) { queue.cancel(.prefetch(request)) }

    /// Cancels every queued load.
    public func cancelAll() { queue.cancelAll() }

    /// Loads one file synchronously (for `--print`): the decoded image and its details, or a message.
    public static func load(path: String, target: PixelSize?) -> Result<(Image, ImageDetails), LoadFailure> {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumFileSize { return .failure(LoadFailure(message: "file too large")) }
            if attributes[.type] as? FileAttributeType == .typeDirectory { return .failure(LoadFailure(message: "is a directory")) }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            return .failure(LoadFailure(message: exists ? "cannot read file" : "file not found"))
        }
        do {
            let image = try ImageCoders.decode(data, options: DecodeOptions(targetSize: target))
            let details = ImageDetails(pixelSize: image.sourceSize, byteCount: Int64(data.count),
                                       format: ImageFormat.sniff(data).rawValue, origin: "file")
            return .success((image, details))
        } catch let error as DecodeError {
            return .failure(LoadFailure(message: error.description))
        } catch {
            return .failure(LoadFailure(message: "cannot decode"))
        }
    }
}

/// Why a local load failed, in a few words.
public struct LoadFailure: Error, Sendable, Hashable {
    /// "file not found", "not an image (text)".
    public var message: String
}
