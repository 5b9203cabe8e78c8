import Foundation

/// Entry point of the coders layer (SDWebImage's `SDWebImageCodersManager`): sniff, then decode with
/// the right library, at the target size, within the pixel cap.
///
/// ```swift
/// let thumb = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 160, height: 96)))
/// ```
public enum ImageCoders {
    /// Decodes `data` into an `Image` (RGBA8, straight alpha; JPEG EXIF orientation applied; all
    /// animation frames unless `firstFrameOnly`), with `sourceFormat` and `sourceByteCount` set.
    /// Throws `DecodeError`.
    public static func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        let format = ImageFormat.sniff(data)
        if let error = format.undecodableError { throw error }
        var image: Image
        switch format {
        case .jpeg: image = try JPEGSession.decode(data, options: options)
        case .png: image = try PNGSession.decode(data, options: options)
        case .gif: image = try GIFDecoder.decode(data, options: options)
        case .webp: image = try WebPDecoder.decode(data, options: options)
        default: throw DecodeError.unsupportedFormat(name: format.rawValue)
        }
        image.sourceFormat = format
        image.sourceByteCount = data.count
        return image
    }

    /// Makes a decoder that takes bytes as they arrive. The format is recognised from the first
    /// bytes appended: JPEG (rows so far / each completed progressive scan) and PNG (rows so far /
    /// each Adam7 pass) show partial images; GIF and WebP decode once at `finish()`.
    public static func makeIncrementalDecoder(options: DecodeOptions = DecodeOptions()) -> any IncrementalDecoding {
        SniffingDecoder(options: options)
    }
}
