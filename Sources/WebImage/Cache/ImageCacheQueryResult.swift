import Dispatch
import Foundation
import ImageCodecs

/// The answer of a query.
package struct ImageCacheQueryResult: Sendable {
    /// The image at the key's target size, nil on a miss.
    package var image: Image?
    /// The original bytes, when the cache policy's `originalData` or `refreshCached` asked for the disk entry and it is there.
    package var data: Data?
    /// Where the image came from (`.none` on a miss).
    package var cacheType: ImageCacheType
    /// The stored validators (from the memory entry or the disk entry).
    package var validators: HTTPValidators?
    /// The stored freshness of the image's response; nil when unknown (stale).
    package var freshness: HTTPFreshness?
    /// Why a disk entry could not be used (e.g. its bytes do not decode); the result is then a miss.
    package var error: CacheError?

    /// Creates a result.
    package init(image: Image? = nil, data: Data? = nil, cacheType: ImageCacheType = .none, validators: HTTPValidators? = nil,
                freshness: HTTPFreshness? = nil, error: CacheError? = nil) {
        self.freshness = freshness
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.validators = validators
        self.error = error
    }

    /// Creates a hit carrying the response metadata.
    init(image: Image?, data: Data? = nil, cacheType: ImageCacheType, metadata: ResponseMetadata) {
        self.init(image: image, data: data, cacheType: cacheType, validators: metadata.validators, freshness: metadata.freshness)
    }

    /// Whether the image may be used at `now` with no request (unknown freshness → stale).
    package func isFresh(at now: Date) -> Bool { freshness?.isFresh(at: now) ?? false }
}
