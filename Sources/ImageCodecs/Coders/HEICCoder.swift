import Foundation

/// HEIC through libheif (`HEICDecoder`): the primary image, decoded whole, then scaled.
struct HEICCoder: ImageCoder {
    var format: ImageFormat { .heic }
    var mediaType: String { "image/heic" }
    var fileExtensions: [String] { ["heic", "heif"] }
    var capabilities: ImageCoderCapabilities { [] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try HEICDecoder.decode(data, options: options) }
}
