import Foundation

/// TIFF through libtiff (`TIFFDecoder`): the first page, decoded whole, oriented, then scaled.
struct TIFFCoder: ImageCoder {
    var format: ImageFormat { .tiff }
    var mediaType: String { "image/tiff" }
    var fileExtensions: [String] { ["tiff", "tif"] }
    var capabilities: ImageCoderCapabilities { [] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try TIFFDecoder.decode(data, options: options) }
}

/// BMP through our own strict decoder (`BMPDecoder`), then scaled.
struct BMPCoder: ImageCoder {
    var format: ImageFormat { .bmp }
    var mediaType: String { "image/bmp" }
    var capabilities: ImageCoderCapabilities { [] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try BMPDecoder.decode(data, options: options) }
}

/// ICO through our own decoder (`ICODecoder`): the largest entry, a PNG or a DIB, then scaled.
struct ICOCoder: ImageCoder {
    var format: ImageFormat { .ico }
    var mediaType: String { "image/x-icon" }
    var capabilities: ImageCoderCapabilities { [] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try ICODecoder.decode(data, options: options) }
}
