import CAVIF
import Foundation

/// AVIF through libavif (see `CAVIF`; AV1 by dav1d or libaom, whichever libavif was built with):
/// stills and image sequences (animations, every frame a full picture with its own duration).
/// libavif has no scaled decode: each picture is decoded whole, converted to RGBA8 and scaled with
/// `ImageScaler`. The `irot`/`imir` properties are applied as the equivalent EXIF orientation
/// (libavif reports them, never applies them); `clap` is not applied. ICC profiles and CICP transfer
/// functions are ignored, as by the other coders (the YUV→RGB matrix is the file's).
enum AVIFDecoder {
    /// libavif's own default cap on pixels per image, the most it is ever told.
    private static let libraryPixelLimit = 16384 * 16384
    /// libavif's default cap on frames in a sequence (parse fails above it).
    private static let frameCountLimit: UInt32 = 12 * 3600 * 60

    /// Whether dav1d, which libavif lets print bitstream errors to stderr, is silenced (`CAVIF`).
    static var dav1dIsQuiet: Bool { sdg_avif_dav1d_is_quiet() != 0 }

    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        try data.withUnsafeBytes { raw -> Image in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { throw DecodeError.empty }
            let decoder = try parse(base, count: raw.count, pixelLimit: options.pixelLimit, data: raw)
            let header: avifImage, geometry: DecodeGeometry
            do {
                guard let image = decoder.pointee.image?.pointee else { throw DecodeError.corrupt(format: "AVIF", reason: "no image") }
                header = image
                let stored = PixelSize(width: Int(header.width), height: Int(header.height))
                guard stored.width > 0, stored.height > 0 else { throw DecodeError.corrupt(format: "AVIF", reason: "no image size") }
                geometry = DecodeGeometry(stored: stored, orientation: orientation(header), box: options.targetSize)
                try geometry.checkLimit(options.pixelLimit)
            } catch {
                avifDecoderDestroy(decoder)
                throw error
            }
            let reader = AVIFFrameReader(decoder, data: raw, file: nil, geometry: geometry)
            return try decodeFrames(reader, data: data, header: header, geometry: geometry, options: options)
        }
    }

    /// A parsed decoder (container only, no pixels), its limits set before parsing. When libavif
    /// refuses it, an announced size over the cap is `tooLarge`.
    static func parse(_ base: UnsafePointer<UInt8>, count: Int, pixelLimit: Int, data: UnsafeRawBufferPointer) throws -> UnsafeMutablePointer<avifDecoder> {
        let limit = UInt32(max(1, min(pixelLimit, libraryPixelLimit)))
        var result = AVIF_RESULT_OK
        guard let decoder = sdg_avif_parse(base, count, limit, 32768, frameCountLimit, &result) else {
            throw DecodeError.corrupt(format: "AVIF", reason: "out of memory")
        }
        guard result == AVIF_RESULT_OK else {
            let error = failure(result, decoder, data: data)
            avifDecoderDestroy(decoder)
            // Over the cap? libavif refuses it without saying the size (in a way to read): the
            // boxes announce it.
            if let size = ISOBMFFBoxes.largestAnnouncedSize(data), size.area > pixelLimit {
                throw DecodeError.tooLarge(width: size.width, height: size.height)
            }
            throw error
        }
        return decoder
    }

    /// Bytes the AV1 decoder holds for one picture: its planes at the file's depth and subsampling,
    /// alpha included.
    private static func planeBytes(_ header: avifImage, area: Int, alpha: Bool) -> Int {
        let sample = header.depth > 8 ? 2 : 1
        // Luma plus both chroma planes, in quarters of the luma plane: 4:4:4, 4:2:2, 4:2:0, 4:0:0.
        let chromaQuarters: Int
        switch header.yuvFormat {
        case AVIF_PIXEL_FORMAT_YUV422: chromaQuarters = 4
        case AVIF_PIXEL_FORMAT_YUV420: chromaQuarters = 2
        case AVIF_PIXEL_FORMAT_YUV400: chromaQuarters = 0
        default: chromaQuarters = 8
        }
        return area * sample * (4 + chromaQuarters + (alpha ? 4 : 0)) / 4
    }

    private static func decodeFrames(_ reader: AVIFFrameReader, data: Data, header: avifImage, geometry: DecodeGeometry,
                                     options: DecodeOptions) throws -> Image {
        let decoder = reader.decoder
        let stored = geometry.stored
        let sequence = decoder.pointee.imageCount > 1
        let animate = sequence && !options.firstFrameOnly
        // Working bytes: the RGBA picture, the AV1 decoder's planes (a sequence's reference frames:
        // dav1d keeps up to 8 besides the one being made), and the first frame at the target.
        let planes = planeBytes(header, area: stored.area, alpha: decoder.pointee.alphaPresent != 0) * (sequence ? 9 : 2)
        let memory = OutputBudget(options, working: stored.area * 4 + planes, framePixelBytes: geometry.target.area * 4)
        if animate { guard memory.allows(frames: 1) else { throw DecodeError.tooLarge(width: stored.width, height: stored.height) } }
        var reservation: DecodeMemory.Reservation? = try options.memory.reserve(memory.working + memory.frame)
        // As for GIF and WebP: frames are held while they cover at most `pixelLimit` picture pixels in all.
        let work = max(stored.area, geometry.target.area)
        let budget = max(options.pixelLimit, work)
        // The pictures and their durations, from the container (`imageCount`, each one's timing).
        let frameCount = animate ? min(Int(decoder.pointee.imageCount), options.maxFrames) : 1
        let holding = FrameHolding.choose(count: frameCount, work: work, pixelBudget: budget, memory: memory, reservation: reservation,
                                          frameBytes: geometry.target.area * 4, encodedBytes: data.count, options: options)
        let target = geometry.orientation.oriented(geometry.target)
        // libavif 0.11 does not read a sequence's repetition count (edts): it plays forever.
        if case .stream(let bytes) = holding {
            let durations = (0..<frameCount).map { n in
                var timing = avifImageTiming()
                return AVIFFrameReader.duration(avifDecoderNthImageTiming(decoder, UInt32(n), &timing) == AVIF_RESULT_OK ? timing.duration : 0)
            }
            reservation = nil
            let pixelLimit = options.pixelLimit
            return try FrameStream.image(
                of: data, durations: durations, bytes: bytes, workingBytes: memory.working, size: target, loopCount: 0,
                sourceSize: geometry.display, options: options,
                open: { try AVIFFrameReader($0, geometry: geometry, pixelLimit: pixelLimit) })
        }
        let frames = try reader.holdFrames(count: frameCount, pregrown: holding.pregrown, work: work, pixelBudget: budget,
                                           memory: memory, reservation: reservation)
        withExtendedLifetime(reservation) {}
        return Image(width: target.width, height: target.height, pixels: frames[0].pixels,
                     frames: frames.count > 1 ? frames : [], loopCount: 0, sourceSize: geometry.display)
    }

    /// The EXIF orientation equal to `irot` (anticlockwise quarter turns) then `imir` (0: top and
    /// bottom exchanged, 1: left and right), the order MIAF prescribes.
    static func orientation(_ image: avifImage) -> ExifOrientation {
        let angle = image.transformFlags & UInt32(AVIF_TRANSFORM_IROT.rawValue) != 0 ? Int(image.irot.angle & 3) : 0
        let mirror: Int? = image.transformFlags & UInt32(AVIF_TRANSFORM_IMIR.rawValue) != 0 ? Int(image.imir.mode & 1) : nil
        return orientation(quarterTurnsAnticlockwise: angle, mirror: mirror)
    }

    /// See `orientation(_:)`; `mirror` 0 flips top–bottom, 1 left–right.
    static func orientation(quarterTurnsAnticlockwise angle: Int, mirror: Int?) -> ExifOrientation {
        switch (angle, mirror) {
        case (0, nil): return .up
        case (1, nil): return .left
        case (2, nil): return .down
        case (3, nil): return .right
        case (0, 1), (2, 0): return .upMirrored
        case (0, _), (2, _): return .downMirrored
        case (1, 0), (3, 1): return .leftMirrored
        default: return .rightMirrored
        }
    }

    /// libavif's error as a `DecodeError`: `.truncated` when libavif says so or the data ends inside
    /// a box (libavif reports a cut file as a parse failure, "Exceeded avifIO's sizeHint").
    static func failure(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>, data: UnsafeRawBufferPointer) -> DecodeError {
        if result == AVIF_RESULT_TRUNCATED_DATA || ISOBMFFBoxes.endsInsideABox(data) { return .truncated(format: "AVIF") }
        let fallback = LibraryText.sanitized(avifResultToString(result), fallback: "error \(result.rawValue)")
        return .corrupt(format: "AVIF", reason: LibraryText.sanitized(sdg_avif_diagnostics(decoder), fallback: fallback))
    }
}
