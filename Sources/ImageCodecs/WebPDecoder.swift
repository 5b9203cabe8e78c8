import CWebP
import Foundation

/// WebP through libwebp (see `CWebP`): stills decode straight to the target size with libwebp's own
/// area-averaging scaler; animations are walked frame by frame (`WebPAnimation`: libwebp decodes each frame's bitstream,
/// drawn on the canvas here), then scaled.
enum WebPDecoder {
    /// Decodes a still or an animation at the target size.
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        try data.withUnsafeBytes { raw -> Image in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw DecodeError.empty }
            var w: Int32 = 0, h: Int32 = 0, alpha: Int32 = 0, animated: Int32 = 0
            let status = sdg_webp_features(base, raw.count, &w, &h, &alpha, &animated)
            guard status == 0 else { throw failure(status) }
            let geometry = DecodeGeometry(stored: PixelSize(width: Int(w), height: Int(h)), box: options.targetSize)
            try geometry.checkLimit(options.pixelLimit)
            if animated != 0 {
                return try decodeAnimation(data, base, count: raw.count, geometry: geometry, options: options)
            }
            let target = geometry.target
            // libwebp's scaler works row by row: the output and a few rows of the stored width.
            let reservation = try options.memory.reserve(target.area * 4 + geometry.stored.width * 64)
            defer { withExtendedLifetime(reservation) {} }
            var pixels = [UInt8](repeating: 0, count: target.width * target.height * 4)
            let result = pixels.withUnsafeMutableBufferPointer { out in
                sdg_webp_decode_rgba(base, raw.count, Int32(target.width), Int32(target.height), out.baseAddress, out.count)
            }
            guard result == 0 else { throw failure(result) }
            return Image(width: target.width, height: target.height, pixels: pixels, sourceSize: geometry.stored)
        }
    }

    private static func decodeAnimation(_ data: Data, _ base: UnsafePointer<UInt8>, count: Int, geometry: DecodeGeometry, options: DecodeOptions) throws -> Image {
        let bytes = UnsafeBufferPointer(start: base, count: count)
        guard let animation = WebPAnimation(bytes) else {
            throw DecodeError.corrupt(format: "WebP", reason: "invalid animation")
        }
        let canvas = animation.canvas
        // Output bytes: the canvas, one frame's decode and the canvas copy scaled from; then the
        // frames kept at the target size.
        let memory = OutputBudget(options, working: WebPFrameReader.workingBytes(canvas: canvas), framePixelBytes: geometry.target.area * 4)
        guard memory.allows(frames: 1) else { throw DecodeError.tooLarge(width: canvas.width, height: canvas.height) }
        // The process-wide budget (`DecodeMemory`): the canvases and the first frame; then every
        // further frame, or the stream's bytes.
        var reservation: DecodeMemory.Reservation? = try options.memory.reserve(memory.working + memory.frame)
        // As for GIF: frames are held while they cover at most `pixelLimit` canvas pixels in all (every
        // frame is drawn on the full canvas, which is then scaled), whatever the target size.
        let work = max(canvas.area, geometry.target.area)
        let budget = max(options.pixelLimit, work)
        // The frames and their durations, from the chunks (each bitstream's header checked, none decoded).
        var durations: [Double] = []
        if !options.firstFrameOnly {
            animation.forEachFrame { frame in
                guard WebPFrameReader.bitstreamFits(frame, in: bytes) else { return false }
                let seconds = Double(frame.duration) / 1000
                durations.append(seconds > 0.011 ? seconds : 0.1)
                return durations.count < options.maxFrames
            }
        }
        let frameCount = options.firstFrameOnly ? 1 : durations.count
        let holding = FrameHolding.choose(count: frameCount, work: work, pixelBudget: budget, memory: memory, reservation: reservation,
                                          frameBytes: geometry.target.area * 4, encodedBytes: data.count, options: options)
        let target = geometry.target
        if case .stream(let bytes) = holding {
            reservation = nil
            return try FrameStream.image(
                of: data, durations: durations, bytes: bytes, workingBytes: WebPFrameReader.workingBytes(canvas: geometry.stored),
                size: target, loopCount: animation.loopCount, sourceSize: geometry.stored, options: options,
                open: { try WebPFrameReader($0, target: target) })
        }
        let reader = WebPFrameReader(animation, file: nil, target: target)
        let frames = try reader.holdFrames(count: frameCount, pregrown: holding.pregrown, work: work, pixelBudget: budget,
                                           memory: memory, reservation: reservation)
        withExtendedLifetime(reservation) {}
        return Image(width: target.width, height: target.height, pixels: frames[0].pixels,
                     frames: frames.count > 1 ? frames : [], loopCount: animation.loopCount, sourceSize: geometry.stored)
    }

    static func failure(_ status: Int32) -> DecodeError {
        if status == Int32(VP8_STATUS_NOT_ENOUGH_DATA.rawValue) { return .truncated(format: "WebP") }
        return .corrupt(format: "WebP", reason: String(cString: sdg_webp_status_string(status)))
    }
}
