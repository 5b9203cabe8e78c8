import Foundation

/// Entry point of the coders layer (SDWebImage's `SDWebImageCodersManager`): sniff, then decode with
/// the format's coder (`ImageCoderRegistry`), at the target size, within the pixel cap.
///
/// ```swift
/// let thumb = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 160, height: 96)))
/// ```
public enum ImageCoders {
    /// Decodes `data` into an `Image` (RGBA8, straight alpha; orientation applied; all animation
    /// frames unless `firstFrameOnly`), with `sourceFormat` and `sourceByteCount` set.
    /// Throws `DecodeError`.
    public static func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        let format = ImageFormat.sniff(data)
        if let error = format.undecodableError { throw error }
        guard let coder = ImageCoderRegistry.coder(for: format) else { throw DecodeError.unsupportedFormat(name: format.rawValue) }
        var image = try coder.decode(data, options: options)
        image.sourceFormat = format
        image.sourceByteCount = data.count
        return image
    }

    /// Makes a decoder that takes bytes as they arrive. The format is recognised from the first
    /// bytes appended, and its coder's session streams them (partial images, an early final image)
    /// when it has one; otherwise the bytes decode once at `finish()`.
    public static func makeIncrementalDecoder(options: DecodeOptions = DecodeOptions()) -> any IncrementalDecoding {
        SniffingDecoder(options: options)
    }
}
