import Foundation

/// Decodes an image while its bytes arrive (SDWebImage's progressive coder role).
///
/// Not thread-safe: one owner feeds it, one call at a time (the download operation serialises calls).
/// Memory is bounded by the image, not by the number of chunks.
///
/// ```swift
/// let decoder = ImageCoders.makeIncrementalDecoder(options: options)
/// decoder.append(chunk)                  // as bytes arrive
/// if let preview = decoder.partialImage() { show(preview) }
/// let final = try decoder.finish()       // all bytes are in
/// ```
public protocol IncrementalDecoding: AnyObject {
    /// Feeds the next bytes (any size, including one byte).
    func append(_ chunk: Data)
    /// The best image from the bytes so far (completed JPEG scans, decoded rows, finished Adam7
    /// passes), at the target size; nil if there is nothing worth showing yet or the format cannot
    /// be shown partially.
    func partialImage() -> Image?
    /// All bytes have arrived: the final image, equal to a one-shot decode of the same bytes.
    /// Throws `DecodeError` (e.g. `.truncated` when the data ended early).
    func finish() throws -> Image
    /// An image from the bytes so far that is already final at the target size (a JPEG's EXIF
    /// thumbnail no smaller than the target and of the image's aspect; a progressive JPEG's DC
    /// scans (its 1/4 or 1/2 scans, decided from its scan script, when the target needs that scale) or
    /// an Adam7 PNG's first pass when the target is at most 1/8 of the image per axis):
    /// nothing later would add a pixel the target shows. Nil when more bytes are needed.
    func sufficientImage() -> Image?
    /// Whether `sufficientImage()` has an image to give, known before it is made: a JPEG XL's DC
    /// step is in (making its image — libjxl's flush at full size, then scaling — takes 0.2 s for
    /// 12 MP, 200 KB more of a 1 MB/s link). A download stops reading on it, then asks for the image.
    /// False when the decoder cannot tell without making the image: `sufficientImage()` answers.
    var hasSufficientBytes: Bool { get }
}

extension IncrementalDecoding {
    /// Formats that cannot tell: never before the end.
    public func sufficientImage() -> Image? { nil }
    /// Decoders that cannot tell before making the image.
    public var hasSufficientBytes: Bool { false }
}
