import Dispatch
import Foundation
import ImageCodecs

/// Where a query's image came from.
public enum ImageCacheType: Sendable, Hashable {
    /// Not cached.
    case none
    /// The memory LRU.
    case memory
    /// The disk cache (decoded now).
    case disk
}
