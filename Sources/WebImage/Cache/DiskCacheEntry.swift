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
    /// The response's freshness (RFC 9111); nil when unknown (an entry of the version 1 format): stale.
    public let freshness: HTTPFreshness?

    /// Creates an entry.
    public init(key: String, data: Data, validators: HTTPValidators, contentType: String?, storedAt: Date, lastAccess: Date,
                freshness: HTTPFreshness? = nil) {
        self.key = key
        self.data = data
        self.validators = validators
        self.contentType = contentType
        self.storedAt = storedAt
        self.lastAccess = lastAccess
        self.freshness = freshness
    }

    /// The format of the bytes, sniffed from their magic.
    public var format: ImageFormat { ImageFormat.sniff(data) }

    /// Whether the bytes may be used at `now` with no request (no freshness known → stale).
    public func isFresh(at now: Date) -> Bool { freshness?.isFresh(at: now) ?? false }
}
