import Foundation
import ImageCodecs

/// The key of one cached image: a URL-derived string plus the decoded target size, so a thumbnail and
/// a full view of the same URL are different memory entries. The disk cache stores the original bytes
/// once per URL and uses `diskKey`, which leaves the target size out.
///
/// ```swift
/// let thumb = ImageCacheKey(url: url, targetSize: PixelSize(width: 160, height: 96))
/// let full = ImageCacheKey(url: url)
/// thumb.diskKey == full.diskKey  // true
/// ```
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The URL-derived string (absolute URL without its fragment).
    public let urlKey: String
    /// The box the image is decoded to fit in; nil for a full-size decode.
    public let targetSize: PixelSize?
    /// Whether only an animation's first frame is decoded (`ImageRequest.DeliveryOptions.decodeFirstFrameOnly`:
    /// the grid's stills), a different entry from the one with every frame.
    public let firstFrameOnly: Bool

    /// A key for `url` (its fragment is ignored: it never reaches the server; `user:password@` is
    /// left out: credentials never reach the cache or the disk).
    public init(url: URL, targetSize: PixelSize? = nil, firstFrameOnly: Bool = false) {
        var string = url.removingCredentials.absoluteString
        if let hash = string.firstIndex(of: "#") { string = String(string[..<hash]) }
        self.init(urlKey: string, targetSize: targetSize, firstFrameOnly: firstFrameOnly)
    }

    /// A key from an already URL-derived string.
    public init(urlKey: String, targetSize: PixelSize? = nil, firstFrameOnly: Bool = false) {
        self.urlKey = urlKey
        self.targetSize = targetSize
        self.firstFrameOnly = firstFrameOnly
    }

    /// The key of the original bytes on disk (no target size).
    public var diskKey: String { urlKey }

    /// The same URL at another target size.
    public func withTargetSize(_ size: PixelSize?) -> ImageCacheKey { ImageCacheKey(urlKey: urlKey, targetSize: size, firstFrameOnly: firstFrameOnly) }

    /// How to decode the original for this entry.
    public var decodeOptions: DecodeOptions { DecodeOptions(targetSize: targetSize, firstFrameOnly: firstFrameOnly) }

    /// "url", "url@W×H", or "url@W×H·still" (first frame only).
    public var description: String {
        guard let targetSize else { return urlKey + (firstFrameOnly ? "@still" : "") }
        return "\(urlKey)@\(targetSize)" + (firstFrameOnly ? "·still" : "")
    }
}
