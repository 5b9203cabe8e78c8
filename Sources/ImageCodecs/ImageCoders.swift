import Foundation

/// Entry point of the coders layer (SDWebImage's `SDWebImageCodersManager`): sniff, then decode with
/// the right library, at the target size, within the pixel cap.
///
/// ```swift
/// let thumb = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 160, height: 96)))
/// ```
public enum ImageCoders {
    /// Decodes `data` into an `Image`. Throws `DecodeError`.
    public static func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        let format = ImageFormat.sniff(data)
        if let error = format.undecodableError { throw error }
        // Filled in by the codecs work (issue 3).
        throw DecodeError.unsupportedFormat(name: format.rawValue)
    }

    /// Makes a decoder that takes bytes as they arrive. The format is recognised from the first
    /// bytes appended; formats without incremental support decode once at `finish()`.
    public static func makeIncrementalDecoder(options: DecodeOptions = DecodeOptions()) -> any IncrementalDecoding {
        BufferingDecoder(options: options)
    }
}

/// Fallback incremental decoder: keeps the bytes and decodes once at the end.
final class BufferingDecoder: IncrementalDecoding {
    private var data = Data()
    private let options: DecodeOptions

    init(options: DecodeOptions) { self.options = options }

    func append(_ chunk: Data) { data.append(chunk) }
    func partialImage() -> Image? { nil }
    func finish() throws -> Image { try ImageCoders.decode(data, options: options) }
}
