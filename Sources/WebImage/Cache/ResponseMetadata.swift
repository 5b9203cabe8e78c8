import Foundation

/// What the cache keeps about the response an image came from, in memory as on disk: its validators
/// (for conditional requests) and its freshness (RFC 9111; nil = unknown, treated as stale).
public struct ResponseMetadata: Sendable, Hashable {
    /// `ETag` / `Last-Modified`.
    public var validators: HTTPValidators
    /// The response's freshness; nil when unknown (not from HTTP, or a version 1 disk entry).
    public var freshness: HTTPFreshness?

    /// Creates metadata.
    public init(validators: HTTPValidators = HTTPValidators(), freshness: HTTPFreshness? = nil) {
        self.validators = validators
        self.freshness = freshness
    }

    /// Whether the image may be used at `now` with no request (unknown freshness → stale).
    public func isFresh(at now: Date) -> Bool { freshness?.isFresh(at: now) ?? false }
}
