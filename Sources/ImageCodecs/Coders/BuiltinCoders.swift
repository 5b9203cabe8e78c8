import Foundation

/// JPEG through libjpeg-turbo (`JPEGSession`): DCT-scaled decodes, rows or scans while bytes arrive,
/// an early stop at the EXIF thumbnail or the scans the target's scale needs.
struct JPEGCoder: ImageCoder {
    var format: ImageFormat { .jpeg }
    var mediaType: String { "image/jpeg" }
    var fileExtensions: [String] { ["jpg", "jpeg", "jpe", "jfif"] }
    var capabilities: ImageCoderCapabilities { [.scaledDecode, .progressive, .earlyStop] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try JPEGSession.decode(data, options: options) }
    func makeSession(options: DecodeOptions) throws -> (any CoderSession)? { try JPEGSession(options: options, incremental: true) }

    /// Fed to a session in steps, its reservation waiting for room now, and ends at its first image
    /// final at the target (a progressive file's DC scans: a one-shot decode would read every scan).
    func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image {
        let session = try JPEGSession(options: options, incremental: true, waitsForMemory: true)
        return try session.feed(data) { session.scaledImage() }
    }
}

extension JPEGSession: CoderSession {
    /// The EXIF thumbnail when it covers the target, else the scans the target's scale needs.
    func sufficientImage() -> Image? {
        if let thumbnail = exifThumbnailImage() { return thumbnail.tiered(.exifThumbnail) }
        return scaledImage()?.tiered(.scale(denominator: scaleDenominator))
    }
}

/// PNG through libpng's progressive reader (`PNGSession`): rows or Adam7 passes while bytes arrive,
/// an early stop at the first pass when it covers the target.
struct PNGCoder: ImageCoder {
    var format: ImageFormat { .png }
    var mediaType: String { "image/png" }
    var capabilities: ImageCoderCapabilities { [.progressive, .earlyStop] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try PNGSession.decode(data, options: options) }
    func makeSession(options: DecodeOptions) throws -> (any CoderSession)? { try PNGSession(options: options, incremental: true) }
}

extension PNGSession: CoderSession {
    func sufficientImage() -> Image? { firstPassImage()?.tiered(.firstPass) }
}

/// GIF through giflib (`GIFDecoder`): decoded at the end; an interlaced file's first pass can be final
/// before.
struct GIFCoder: ImageCoder {
    var format: ImageFormat { .gif }
    var mediaType: String { "image/gif" }
    var capabilities: ImageCoderCapabilities { [.earlyStop, .animation] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try GIFDecoder.decode(data, options: options) }
    func sufficientImage(buffered: Data, options: DecodeOptions) -> Image? { GIFDecoder.firstPass(buffered, options: options)?.tiered(.firstPass) }
}

/// WebP through libwebp (`WebPDecoder`): stills scaled by libwebp, animations frame by frame.
struct WebPCoder: ImageCoder {
    var format: ImageFormat { .webp }
    var mediaType: String { "image/webp" }
    var capabilities: ImageCoderCapabilities { [.scaledDecode, .animation] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try WebPDecoder.decode(data, options: options) }
}

extension Image {
    /// This image marked as the early image of `tier`.
    public func tiered(_ tier: EarlyTier) -> Image {
        var image = self
        image.earlyTier = tier
        return image
    }
}

/// JPEG XL through libjxl (`JXLSession`): the image while bytes arrive (its DC, then detail), an
/// early stop at the DC when the target is at most 1/8 of the image, animations frame by frame.
struct JXLCoder: ImageCoder {
    var format: ImageFormat { .jxl }
    var mediaType: String { "image/jxl" }
    var capabilities: ImageCoderCapabilities { [.progressive, .earlyStop, .animation] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try JXLSession.decode(data, options: options) }
    func makeSession(options: DecodeOptions) throws -> (any CoderSession)? { try JXLSession(options: options, incremental: true) }

    /// Fed to a session in steps, its reservation waiting for room now, and ends at the DC when
    /// that is final at the target.
    func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image {
        let session = try JXLSession(options: options, incremental: true, waitsForMemory: true)
        return try session.feed(data) { session.sufficientImage() }
    }
}

extension JXLSession: CoderSession {}

/// SVG through librsvg (`SVGDecoder`): rendered at the target size, decoded once the document is in.
struct SVGCoder: ImageCoder {
    var format: ImageFormat { .svg }
    var mediaType: String { "image/svg+xml" }
    var capabilities: ImageCoderCapabilities { [.scaledDecode, .vector] }
    func decode(_ data: Data, options: DecodeOptions) throws -> Image { try SVGDecoder.decode(data, options: options) }
}
