import Foundation

/// AVIF through libavif (`AVIFDecoder`): stills and image sequences; decoded whole, then scaled.
struct AVIFCoder: ImageCoder {
    var format: ImageFormat { .avif }
    var mediaType: String { "image/avif" }
    var capabilities: ImageCoderCapabilities { [.animation] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try AVIFDecoder.decode(data, options: options) }
}
