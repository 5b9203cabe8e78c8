import CJXL
import Foundation

/// One JPEG XL decode through libjxl (see `CJXL`), one-shot or fed in chunks of any size: libjxl
/// keeps what it has not consumed, the rest is dropped. The basic info comes first: the size is
/// checked against the pixel cap and the working memory reserved before libjxl allocates pixels.
/// Incremental sessions ask libjxl for its DC step (`kDC`, 1/8 resolution): a flush then renders
/// it (upsampled to the full size), the partial image, and when the target is at most 1/8 of the
/// image per axis that image is final at the target (`sufficientImage`, tier `.scale(denominator: 8)`,
/// as a progressive JPEG's DC scans). That is known at libjxl's event, before the flush
/// (`hasSufficientBytes`): decoding pauses there, and the flush and scaling — 0.2 s for 12 MP, while
/// a link at 1 MB/s sends 200 KB more — wait for `sufficientImage()`, after a download has stopped.
/// Every lossy (VarDCT) file sends its DC before its detail, so
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
    /// The first frame's DC step is in and covers the target: its downsampling ratio (the image is
    /// made by `sufficientImage`).
    private var sufficientRatio: Int?
    private var sufficient: Image?
    /// Bytes of the reservation given back while paused at the DC (`progression`), to be taken back
    /// before the detail is decoded (`resumes`).
    private var givenBack = 0

    /// The header is in and the working memory held, or the data failed.
    var started: Bool { memory != nil || error != nil }

    /// libjxl's own working memory per pixel, on top of the RGBA output: djxl, single-threaded, on
    /// a 4000×3000 photo (cjxl -d 1) peaked at 225 MB, 36 MB of it its RGB output: ≈ 16 bytes a pixel.
    /// What is reserved for a decode of any encoding (a lossy modular file took 35).
    static let workingBytesPerPixel = 16
    /// libjxl's working memory from a VarDCT frame's DC step to the end of that step's flush (libjxl
    /// pauses at the DC only in a VarDCT frame without extra channels, `FrameDecoder::SetPauseAtProgressive`,
    /// 0.7 to 0.11, and has allocated nothing of the detail yet: a multi-pass frame's coefficients,
    /// up to 12.6 bytes a pixel, come with its AC global section). A session on a 4000×3000 photo
    /// (cjxl -d 1) fed in 4 KB steps peaked at 3.3 bytes a pixel besides its output, flush included.
    /// A session paused at a DC final at its target holds only this much (`progression`): six 12 MP
    /// photos then watch for their DC within the default 1 GiB budget where four did (the others,
    /// refused, could not see theirs); going on past the DC takes the rest back first (`resumes`).
    static let dcWorkingBytesPerPixel = 6

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

    /// Processes libjxl's events until it needs more bytes, fails or ends. `waiting`: the reservation
    /// given back at the DC is waited for (the end), else the bytes wait for it.
    private func run(waiting: Bool = false) {
        guard resumes(waiting: waiting || waitsForMemory) else { return }
        while error == nil, !done, !refused {
            switch Int(sdg_jxl_process(handle)) {
            case SDG_JXL_NEED_MORE: return
            case SDG_JXL_BASIC_INFO: header()
            case SDG_JXL_FRAME: frameDuration = sdg_jxl_frame_duration(handle)
            case SDG_JXL_NEED_BUFFER: setBuffer()
            case SDG_JXL_PROGRESSION:
                progression()
                // Paused at the DC: the bytes after it wait for the next append, so `sufficientImage`
                // flushes exactly this step and nobody waits for detail being decoded.
                if sufficientRatio != nil { return }
            case SDG_JXL_FULL_IMAGE: fullImage()
            case SDG_JXL_SUCCESS: done = true
            default: error = .corrupt(format: "JPEG XL", reason: "invalid data")
            }
        }
    }

    /// Past a pause at the DC whose reservation was cut (`progression`), the detail needs libjxl's
    /// whole working memory back: false while it does not fit (never waiting unless `waiting`).
    private func resumes(waiting: Bool) -> Bool {
        guard givenBack > 0, let memory else { return true }
        if waiting {
            memory.growWaiting(by: givenBack)
        } else if !memory.grow(by: givenBack) {
            return false
        }
        givenBack = 0
        return true
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
        var bytes = Self.stillBytes(g, working: Self.workingBytesPerPixel)
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

    /// A still's reservation: the output and libjxl's working memory (`working` bytes a pixel), the target.
    private static func stillBytes(_ g: DecodeGeometry, working: Int) -> Int {
        g.stored.area * (4 + working) + g.target.area * 4
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

    /// The DC of the first frame is in: when the target is at most 1/8 of the image per axis, the
    /// image it gives is final at the target (made by `sufficientImage`).
    private func progression() {
        guard incremental, sufficient == nil, sufficientRatio == nil, frames.isEmpty, still == nil, info.have_animation == 0,
              let geometry, buffer != nil else { return }
        let ratio = Int(sdg_jxl_progression_ratio(handle))
        let w = (geometry.stored.width + ratio - 1) / ratio, h = (geometry.stored.height + ratio - 1) / ratio
        guard [2, 4, 8].contains(ratio), geometry.target.width <= w, geometry.target.height <= h else { return }
        sufficientRatio = ratio
        // Paused here (`run`): until the detail is asked for, libjxl needs only the DC's memory.
        if let memory {
            let kept = Self.stillBytes(geometry, working: Self.dcWorkingBytesPerPixel)
            givenBack = max(0, memory.bytes - kept)
            memory.shrink(to: kept)
        }
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

    /// The DC step is in and its image final at the target (see `progression`): `sufficientImage()`
    /// gives it. Known without flushing.
    var hasSufficientBytes: Bool { sufficient != nil || (sufficientRatio != nil && error == nil && inFrame) }

    /// The DC image when it is final at the target (see `progression`), nil before or otherwise:
    /// flushed and scaled on the first call (at the DC when asked right after the append that
    /// brought it, as every caller does; with more detail when asked later).
    func sufficientImage() -> Image? {
        if let sufficient { return sufficient }
        guard let ratio = sufficientRatio, error == nil, inFrame, let geometry, let buffer else { return nil }
        guard sdg_jxl_flush(handle) == 0 else {
            sufficientRatio = nil  // not final after all: `hasSufficientBytes` stops saying so
            return nil
        }
        let image = geometry.finish(buffer, size: geometry.stored)
        sufficient = image.tiered(.scale(denominator: ratio))
        lastPartial = image
        fresh = false
        return sufficient
    }

    /// All bytes are in: the final image or the error (`.truncated` when the file ends early). An
    /// animation whose later frame fails or is cut off keeps the frames before it (as GIF and WebP).
    func finish() throws -> Image {
        if error == nil && !done && !refused {
            sdg_jxl_close_input(handle)
            run(waiting: true)
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
