import Foundation
import ImageCodecs

/// An early image on disk (the disk cache's early tier): the image a transfer stopped at once it was
/// final for its cell (`.stopWhenSufficient`: a progressive JPEG's 1/8, 1/4 or 1/2 scale, an EXIF
/// thumbnail, an Adam7 PNG's or interlaced GIF's first pass — `Image.earlyTier`), kept while the URL
/// has no original on disk, so a later run shows the cell from disk instead of asking the network.
///
/// - One per URL, under `diskKey(for:)`: an ordinary disk entry (atomic write, CRC, counted in the
///   size limit, trimmed and expired like the originals) whose metadata is the *original's* response:
///   its validators (`ETag` / `Last-Modified`) and freshness. A stale early image is revalidated with
///   them like any entry: a 304 renews it, a 200 brings the whole original.
/// - Its payload is `DecodedThumbnail`'s layout, with the tier and no identity (there is no original
///   file for it to follow).
/// - It is good for a target whose fit of the image's source size is no larger than its pixels
///   (`image(_:for:)`). A request needing more — the full view, a bigger cell, `s` (`originalData`),
///   `r` (`refreshCached`) — does not look at it and fetches (resumes) the original.
/// - Storing the original removes it (superseded), and the lookup reads it only when there is no
///   original.
enum EarlyImageEntry {
    /// The disk key of the early image of `key`'s URL (one per URL, whatever the target size).
    static func diskKey(for key: ImageCacheKey) -> String { key.diskKey + "@early" }

    /// The payload for `image`; nil when it is not an early image (or is animated).
    static func encode(_ image: Image) -> Data? {
        guard image.earlyTier != nil, !image.isAnimated else { return nil }
        return DecodedThumbnail.encode(image, sourceIdentity: "")
    }

    /// The early image in `data`; nil when `data` is not a well-formed early image (its source must
    /// be at least as large as it: an early image is the source fitted into a cell).
    static func decode(_ data: Data) -> Image? {
        guard let (image, identity) = DecodedThumbnail.decode(data), image.earlyTier != nil, identity.isEmpty,
              image.sourceSize.width >= image.width, image.sourceSize.height >= image.height else { return nil }
        return image
    }

    /// The early image `stored` as the image for `target`: itself when the fit of its source size into
    /// `target` is its own size, scaled down when the fit is smaller; nil when the target needs more
    /// pixels than it holds (nothing less sharp than the cell needs is shown as final).
    static func image(_ stored: Image, for target: PixelSize) -> Image? {
        let fitted = stored.sourceSize.fitting(in: target)
        guard fitted.width <= stored.width, fitted.height <= stored.height else { return nil }
        guard fitted != stored.size else { return stored }
        var image = Image(width: fitted.width, height: fitted.height, pixels: stored.pixels(scaledTo: fitted), sourceSize: stored.sourceSize)
        image.sourceFormat = stored.sourceFormat
        image.sourceByteCount = stored.sourceByteCount
        image.earlyTier = stored.earlyTier
        return image
    }
}
