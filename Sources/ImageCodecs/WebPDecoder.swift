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
                return try decodeAnimation(base, count: raw.count, geometry: geometry, options: options)
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

    private static func decodeAnimation(_ base: UnsafePointer<UInt8>, count: Int, geometry: DecodeGeometry, options: DecodeOptions) throws -> Image {
        guard let animation = WebPAnimation(UnsafeBufferPointer(start: base, count: count)) else {
            throw DecodeError.corrupt(format: "WebP", reason: "invalid animation")
        }
        let canvas = animation.canvas
        // Output bytes: the canvas, one frame's decode and the canvas copy scaled from; then the
        // frames kept at the target size.
        let memory = OutputBudget(options, working: canvas.area * 4 * 3, framePixelBytes: geometry.target.area * 4)
        guard memory.allows(frames: 1) else { throw DecodeError.tooLarge(width: canvas.width, height: canvas.height) }
        // The process-wide budget (`DecodeMemory`): the canvases and the first frame; each later
        // frame only if it fits then (else the animation ends there, as at `outputByteLimit`).
        let reservation = try options.memory.reserve(memory.working + memory.frame)
        defer { withExtendedLifetime(reservation) {} }
        // As for GIF: at most `pixelLimit` canvas pixels of frames in all (every frame is drawn on
        // the full canvas, which is then scaled), whatever the target size.
        let work = max(canvas.area, geometry.target.area)
        let budget = max(options.pixelLimit, work)
        var pixels = [UInt8](repeating: 0, count: canvas.area * 4)
        var decoded = [UInt8](repeating: 0, count: canvas.area * 4)
        var frames: [ImageFrame] = []
        var failure: DecodeError?
        var disposal: WebPAnimation.Frame?
        animation.forEachFrame { frame in
            // The bitstream must be the frame's size (as libwebp's demuxer checks): a 7×5 frame
            // holding a 7×1025 bitstream made libwebp allocate for the bitstream's size.
            var w: Int32 = 0, h: Int32 = 0, alpha: Int32 = 0, animated: Int32 = 0
            let features = sdg_webp_features(base + frame.bitstream.lowerBound, frame.bitstream.count, &w, &h, &alpha, &animated)
            guard features == 0, Int(w) == frame.width, Int(h) == frame.height, animated == 0 else {
                failure = .corrupt(format: "WebP", reason: "a frame's bitstream is not its size")
                return false
            }
            let status = decoded.withUnsafeMutableBufferPointer { out in
                sdg_webp_decode_rgba(base + frame.bitstream.lowerBound, frame.bitstream.count, Int32(frame.width), Int32(frame.height),
                                     out.baseAddress, frame.width * frame.height * 4)
            }
            guard status == 0 else { failure = Self.failure(status); return false }
            pixels.withUnsafeMutableBufferPointer { canvasPixels in
                guard let target = canvasPixels.baseAddress else { return }
                if let disposal { WebPAnimation.clear(disposal, on: target, canvasWidth: canvas.width) }
                decoded.withUnsafeBufferPointer { WebPAnimation.draw(frame, pixels: $0.baseAddress!, on: target, canvasWidth: canvas.width) }
            }
            disposal = frame.disposesToBackground ? frame : nil
            let bitmap = Bitmap(width: canvas.width, height: canvas.height, pixels: pixels).scaled(to: geometry.target)
            let duration = Double(frame.duration) / 1000
            frames.append(ImageFrame(pixels: bitmap.pixels, duration: duration > 0.011 ? duration : 0.1))
            return !(options.firstFrameOnly || (frames.count + 1) * work > budget || !memory.allows(frames: frames.count + 1)
                || !reservation.grow(by: memory.frame))
        }
        guard let first = frames.first else { throw failure ?? DecodeError.truncated(format: "WebP") }
        return Image(
            width: geometry.target.width, height: geometry.target.height, pixels: first.pixels,
            frames: frames.count > 1 ? frames : [], loopCount: animation.loopCount, sourceSize: geometry.stored
        )
    }

    private static func failure(_ status: Int32) -> DecodeError {
        if status == Int32(VP8_STATUS_NOT_ENOUGH_DATA.rawValue) { return .truncated(format: "WebP") }
        return .corrupt(format: "WebP", reason: String(cString: sdg_webp_status_string(status)))
    }
}
