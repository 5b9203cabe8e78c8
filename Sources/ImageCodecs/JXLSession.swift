import CJXL
import Foundation

/// One JPEG XL decode through libjxl (see `CJXL`), one-shot or fed in chunks of any size: libjxl
/// keeps what it has not consumed, the rest is dropped. The basic info comes first: the size is
/// checked against the pixel cap and the working memory reserved before libjxl allocates pixels.
/// Incremental sessions ask libjxl for its DC step (`kDC`, 1/8 resolution): a flush then renders
/// it (upsampled to the full size), the partial image, and when the target is at most 1/8 of the
/// image per axis that image is final at the target (`sufficientImage`, tier `.scale(denominator: 8)`,
/// as a progressive JPEG's DC scans). Every lossy (VarDCT) file sends its DC before its detail, so
/// this works for files made without `cjxl -p` too; lossless (modular) files have no DC step unless
/// encoded progressively. libjxl applies the orientation and gives RGBA8 with straight alpha.
/// Animations are decoded frame by frame within the caps. Not thread-safe: one owner.
final class JXLSession {
    private let handle: OpaquePointer
    private let options: DecodeOptions
    private let incremental: Bool
    /// Whether the memory reservation waits for room (one-shot decodes and decodes fed from bytes
    /// all there) or is refused when short (`refused`).
    private let waitsForMemory: Bool
    private var geometry: DecodeGeometry?
    private var info = sdg_jxl_info()
    /// libjxl's output: the whole image (or animation canvas) in RGBA8, set once, reused per frame.
    private var buffer: UnsafeMutablePointer<UInt8>?
    private var bufferSize = 0
    private var memory: DecodeMemory.Reservation?
    private(set) var refused = false
    private var error: DecodeError?
    private var done = false
    /// The output buffer is set for the current frame and its full image has not come yet.
    private var inFrame = false
    /// Bytes appended since the last partial image was flushed.
    private var fresh = false
    private var frameDuration: UInt32 = 0
    private var still: Image?
    private var frames: [ImageFrame] = []
    private var animation: OutputBudget?
    private var lastPartial: Image?
    private var sufficient: Image?

    /// The header is in and the working memory held, or the data failed.
    var started: Bool { memory != nil || error != nil }

    /// libjxl's own working memory per pixel, on top of the RGBA output: djxl, single-threaded, on
    /// a 4000×3000 photo (cjxl -d 1) peaked at 225 MB, 36 MB of it its RGB output: ≈ 16 bytes a pixel.
    static let workingBytesPerPixel = 16

    init(options: DecodeOptions, incremental: Bool, waitsForMemory: Bool? = nil) throws {
        guard let handle = sdg_jxl_create(incremental ? 1 : 0) else { throw DecodeError.corrupt(format: "JPEG XL", reason: "out of memory") }
        self.handle = handle
        self.options = options
        self.incremental = incremental
        self.waitsForMemory = waitsForMemory ?? !incremental
    }

    deinit {
        sdg_jxl_destroy(handle)
        buffer?.deallocate()
    }

    /// Decodes complete data in one go.
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        let session = try JXLSession(options: options, incremental: false)
        session.append(data)
        return try session.finish()
    }

    /// Feeds bytes and decodes as far as they go.
    func append(_ data: Data) {
        guard error == nil, !done, !refused, !data.isEmpty else { return }
        let status = data.withUnsafeBytes { raw in
            sdg_jxl_append(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        guard status == 0 else { error = .corrupt(format: "JPEG XL", reason: "out of memory"); return }
        fresh = true
        run()
    }

    /// Processes libjxl's events until it needs more bytes, fails or ends.
    private func run() {
        while error == nil, !done, !refused {
            switch Int(sdg_jxl_process(handle)) {
            case SDG_JXL_NEED_MORE: return
            case SDG_JXL_BASIC_INFO: header()
            case SDG_JXL_FRAME: frameDuration = sdg_jxl_frame_duration(handle)
            case SDG_JXL_NEED_BUFFER: setBuffer()
            case SDG_JXL_PROGRESSION: progression()
            case SDG_JXL_FULL_IMAGE: fullImage()
            case SDG_JXL_SUCCESS: done = true
            default: error = .corrupt(format: "JPEG XL", reason: "invalid data")
            }
        }
    }

    /// The basic info: the size against the cap, then the working memory.
    private func header() {
        guard sdg_jxl_get_info(handle, &info) == 0, info.width > 0, info.height > 0 else {
            error = .corrupt(format: "JPEG XL", reason: "invalid header")
            return
        }
        let g = DecodeGeometry(stored: PixelSize(width: Int(info.width), height: Int(info.height)), box: options.targetSize)
        do { try g.checkLimit(options.pixelLimit) } catch { self.error = error as? DecodeError; return }
        geometry = g
        // The output and libjxl's working memory (per pixel), the target; an animation also keeps
        // its first frame (each later one reserved as it comes).
        let area = g.stored.area
        var bytes = area * (4 + Self.workingBytesPerPixel) + g.target.area * 4
        if info.have_animation != 0 {
            let budget = OutputBudget(options, working: area * 4, framePixelBytes: g.target.area * 4)
            guard budget.allows(frames: 1) else { error = .tooLarge(width: g.stored.width, height: g.stored.height); return }
            animation = budget
            bytes += budget.frame
        }
        if waitsForMemory {
            do { memory = try options.memory.reserve(bytes) } catch { self.error = error }
        } else {
            memory = options.memory.tryReserve(bytes)
            refused = memory == nil
        }
    }

    private func setBuffer() {
        guard let geometry else { error = .corrupt(format: "JPEG XL", reason: "no header"); return }
        let size = sdg_jxl_buffer_size(handle)
        guard size == geometry.stored.area * 4 else { error = .corrupt(format: "JPEG XL", reason: "unexpected output size"); return }
        if buffer == nil {
            buffer = .allocate(capacity: size)
            buffer?.initialize(repeating: 0, count: size)
            bufferSize = size
        }
        guard sdg_jxl_set_buffer(handle, buffer, bufferSize) == 0 else { error = .corrupt(format: "JPEG XL", reason: "output buffer refused"); return }
        inFrame = true
    }

    /// The DC of the first frame is in: when the target is at most 1/8 of the image per axis, that
    /// image is final at the target.
    private func progression() {
        guard incremental, sufficient == nil, frames.isEmpty, still == nil, info.have_animation == 0, let geometry, let buffer else { return }
        let ratio = Int(sdg_jxl_progression_ratio(handle))
        let w = (geometry.stored.width + ratio - 1) / ratio, h = (geometry.stored.height + ratio - 1) / ratio
        guard [2, 4, 8].contains(ratio), geometry.target.width <= w, geometry.target.height <= h, sdg_jxl_flush(handle) == 0 else { return }
        let image = geometry.finish(buffer, size: geometry.stored)
        sufficient = image.tiered(.scale(denominator: ratio))
        lastPartial = image
        fresh = false
    }

    /// A frame is complete: the still, or the animation's next frame while the caps allow.
    private func fullImage() {
        inFrame = false
        guard let geometry, let buffer else { error = .corrupt(format: "JPEG XL", reason: "no output"); return }
        let image = geometry.finish(buffer, size: geometry.stored)
        guard let animation else {
            still = image
            return
        }
        let ticks = Double(frameDuration) * Double(info.tps_denominator) / Double(max(1, info.tps_numerator))
        frames.append(ImageFrame(pixels: image.pixels, duration: ticks > 0.011 ? ticks : 0.1))
        // As for GIF and WebP: at most `pixelLimit` canvas pixels of frames in all, within the
        // output bytes and the memory budget; the animation ends at the first frame past them.
        let work = max(geometry.stored.area, geometry.target.area)
        let budget = max(options.pixelLimit, work)
        if options.firstFrameOnly || (frames.count + 1) * work > budget || !animation.allows(frames: frames.count + 1)
            || !(memory?.grow(by: animation.frame) ?? false) {
            done = true
        }
    }

    /// The best image so far: the last complete frame, else what a flush of the current one gives
    /// (the DC upsampled, then more detail as groups come).
    func partialImage() -> Image? {
        guard error == nil, !done else { return lastPartial }
        if let still { return still }
        if let first = frames.first, let geometry { return Image(width: geometry.target.width, height: geometry.target.height, pixels: first.pixels, sourceSize: geometry.display) }
        guard fresh, inFrame, let geometry, let buffer, sdg_jxl_flush(handle) == 0 else { return lastPartial }
        fresh = false
        lastPartial = geometry.finish(buffer, size: geometry.stored)
        return lastPartial
    }

    /// The DC image when it is final at the target (see `progression`), nil before or otherwise.
    func sufficientImage() -> Image? { sufficient }

    /// All bytes are in: the final image or the error (`.truncated` when the file ends early). An
    /// animation whose later frame fails or is cut off keeps the frames before it (as GIF and WebP).
    func finish() throws -> Image {
        if error == nil && !done && !refused {
            sdg_jxl_close_input(handle)
            run()
        }
        if let geometry, animation != nil, let first = frames.first {
            return Image(
                width: geometry.target.width, height: geometry.target.height, pixels: first.pixels,
                frames: frames.count > 1 ? frames : [], loopCount: Int(info.num_loops), sourceSize: geometry.display
            )
        }
        if let error { throw error }
        guard done, let still else { throw DecodeError.truncated(format: "JPEG XL") }
        return still
    }
}
