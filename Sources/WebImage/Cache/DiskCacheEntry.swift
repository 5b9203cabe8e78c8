import Foundation
import ImageCodecs

/// One entry read from the disk cache: the original bytes and what the cache knows about them.
public struct DiskCacheEntry: Sendable {
    /// The disk key (URL-derived, no target size).
    public let key: String
    /// The original bytes, exactly as stored.
    public let data: Data
    /// `ETag` / `Last-Modified` of the response the bytes came from.
    public let validators: HTTPValidators
    /// The response's `Content-Type`, if it was given.
    public let contentType: String?
    /// When the bytes were stored.
    public let storedAt: Date
    /// The last access before this read (the cache records accesses itself: atime is unreliable).
    public let lastAccess: Date

    /// Creates an entry.
    public init(key: String, data: Data, validators: HTTPValidators, contentType: String?, storedAt: Date, lastAccess: Date) {
        self.key = key
        self.data = data
        self.validators = validators
        self.contentType = contentType
        self.storedAt = storedAt
        self.lastAccess = lastAccess
    }

    /// The format of the bytes, sniffed from their magic.
    public var format: ImageFormat { ImageFormat.sniff(data) }
}
