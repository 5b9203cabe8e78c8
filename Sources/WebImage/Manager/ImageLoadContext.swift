import Foundation
import ImageCodecs

/// Per-load parameters beyond the options.
public struct ImageLoadContext: Sendable {
    /// Decode to fit this box (the cell's pixel size); memory-cache entries are keyed by it.
    public var targetSize: PixelSize?
    /// Extra request headers for this load.
    public var headers: [String: String]
    /// Keep the decoded image in the memory cache (the prefetcher turns this off).
    public var storeInMemory: Bool
    /// Where the download waits among waiting downloads of its priority (see
    /// `DownloadContext.queueOrder`).
    public var queueOrder: Int?

    /// Creates a context.
    public init(targetSize: PixelSize? = nil, headers: [String: String] = [:], storeInMemory: Bool = true) {
        self.targetSize = targetSize
        self.headers = headers
        self.storeInMemory = storeInMemory
    }
}
