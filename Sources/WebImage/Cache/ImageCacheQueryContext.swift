import Dispatch
import Foundation
import ImageCodecs

/// Extra inputs of one query (SDWebImage's context dictionary, typed).
public struct ImageCacheQueryContext: Sendable {
    /// Decode options for a disk hit; its `targetSize` is replaced by the key's.
    public var decodeOptions: DecodeOptions
    /// Queue to call `done` on; nil calls it where the work finished (synchronously for a memory hit,
    /// on the I/O or decode queue otherwise).
    public var callbackQueue: DispatchQueue?

    /// Creates a context.
    public init(decodeOptions: DecodeOptions = DecodeOptions(), callbackQueue: DispatchQueue? = nil) {
        self.decodeOptions = decodeOptions
        self.callbackQueue = callbackQueue
    }
}
