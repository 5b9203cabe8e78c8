import CAVIF

/// An AVIF sequence's decoder positioned at its next picture: libavif decodes it, it is converted to
/// RGBA8, scaled and oriented (`DecodeGeometry`). The one frame loop of the whole decode
/// (`AVIFDecoder`) and of a streamed sequence (`FrameStream`).
final class AVIFFrameReader: FrameReader {
    let decoder: UnsafeMutablePointer<avifDecoder>
    /// The file the decoder reads, kept alive while it does (nil: the caller keeps it).
    private let file: EncodedBytes?
    private let data: UnsafeRawBufferPointer
    private let geometry: DecodeGeometry
    /// Made at the first picture, once the decode has reserved it.
    private var rgba: [UInt8] = []
    /// The duration in seconds of the picture `next()` returned last (0.1 for 11 ms or less).
    private(set) var duration = 0.0
    let format = "AVIF"

    /// A reader of a parsed `decoder` over `data` (kept alive by `file`, else by the caller), its
    /// pictures finished by `geometry`. It destroys the decoder when it goes.
    init(_ decoder: UnsafeMutablePointer<avifDecoder>, data: UnsafeRawBufferPointer, file: EncodedBytes?, geometry: DecodeGeometry) {
        self.decoder = decoder
        self.data = data
        self.file = file
        self.geometry = geometry
    }

    /// A reader of `file`, a copy of an AVIF sequence, its pictures finished by `geometry`.
    convenience init(_ file: EncodedBytes, geometry: DecodeGeometry, pixelLimit: Int) throws {
        guard let start = file.start else { throw DecodeError.empty }
        let data = UnsafeRawBufferPointer(start: start, count: file.count)
        self.init(try AVIFDecoder.parse(start, count: file.count, pixelLimit: pixelLimit, data: data), data: data, file: file, geometry: geometry)
    }

    deinit { avifDecoderDestroy(decoder) }

    /// The next picture at the target size; nil after the last. Throws where the file is damaged.
    func next() throws(DecodeError) -> [UInt8]? {
        let result = avifDecoderNextImage(decoder)
        if result == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        guard result == AVIF_RESULT_OK else { throw AVIFDecoder.failure(result, decoder, data: data) }
        // The AV1 picture must be the size the container announced (and reserved for).
        let stored = geometry.stored
        guard let picture = decoder.pointee.image?.pointee, Int(picture.width) == stored.width, Int(picture.height) == stored.height else {
            throw DecodeError.corrupt(format: "AVIF", reason: "a picture is not the image's size")
        }
        if rgba.isEmpty { rgba = [UInt8](repeating: 0, count: stored.area * 4) }
        let converted = rgba.withUnsafeMutableBufferPointer { sdg_avif_rgba(decoder, $0.baseAddress, $0.count) }
        guard converted == AVIF_RESULT_OK else { throw AVIFDecoder.failure(converted, decoder, data: data) }
        guard let image = rgba.withUnsafeBufferPointer({ $0.baseAddress.map { geometry.finish($0, size: stored) } }) else {
            throw DecodeError.corrupt(format: "AVIF", reason: "no picture")
        }
        duration = Self.duration(decoder.pointee.imageTiming.duration)
        return image.pixels
    }

    /// A picture's duration as shown: 0.1 s when it has none or 11 ms or less.
    static func duration(_ seconds: Double) -> Double { seconds.isFinite && seconds > 0.011 ? seconds : 0.1 }
}
