import Dispatch
import Foundation
import ImageCodecs

/// The answer of a query.
public struct ImageCacheQueryResult: Sendable {
    /// The image at the key's target size, nil on a miss.
    public var image: Image?
    /// The original bytes, when `.originalData` or `.refreshCached` asked for the disk entry and it is there.
    public var data: Data?
    /// Where the image came from (`.none` on a miss).
    public var cacheType: ImageCacheType
    /// The stored validators (from the memory entry or the disk entry).
    public var validators: HTTPValidators?
    /// The stored freshness of the image's response; nil when unknown (stale).
    public var freshness: HTTPFreshness?
    /// Why a disk entry could not be used (e.g. its bytes do not decode); the result is then a miss.
    public var error: CacheError?

    /// Creates a result.
    public init(image: Image? = nil, data: Data? = nil, cacheType: ImageCacheType = .none, validators: HTTPValidators? = nil,
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
    public func isFresh(at now: Date) -> Bool { freshness?.isFresh(at: now) ?? false }
}
