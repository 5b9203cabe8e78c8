import CGIF
import Foundation

/// GIF through giflib's record API (see `CGIF`): every frame composited on the canvas with its
/// disposal mode; frame sizes are checked against the pixel cap before their buffers exist.
enum GIFDecoder {
    /// Decodes all frames (or the first one) at the target size: held in the image when they all fit
    /// its budgets, else streamed (`FrameStream`: decoded as they are shown).
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        try data.withUnsafeBytes { raw -> Image in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { throw DecodeError.empty }
            let reader = try GIFFrameReader(start: base, count: raw.count, bytes: nil, box: options.targetSize, pixelLimit: options.pixelLimit)
            return try decode(reader, data: data, scan: {
                GIFScan(start: base, count: raw.count, maxFrames: options.maxFrames, pixelLimit: options.pixelLimit)
            }, options: options)
        }
    }

    private static func decode(_ reader: GIFFrameReader, data: Data, scan: () -> GIFScan, options: DecodeOptions) throws -> Image {
        let canvasSize = reader.canvasSize
        let geometry = DecodeGeometry(stored: canvasSize, box: options.targetSize)
        try geometry.checkLimit(options.pixelLimit)
        guard canvasSize.width > 0, canvasSize.height > 0 else { throw DecodeError.corrupt(format: "GIF", reason: "empty canvas") }
        // Output bytes: the canvas and its saved copy ("restore to previous"), then one target-size
        // frame after another; a canvas that leaves no room for one frame is refused before it exists
        // (a 35-byte file announces 10000×10000: 400 MB per canvas).
        let memory = OutputBudget(options, working: canvasSize.area * 4 * 2, framePixelBytes: geometry.target.area * 4)
        guard memory.allows(frames: 1) else { throw DecodeError.tooLarge(width: canvasSize.width, height: canvasSize.height) }
        // Frames are held while they have covered at most `pixelLimit` canvas pixels in all. That
        // bounds memory and, for a small target box, the work too: each frame is composited and
        // scaled from the whole canvas, so counting target pixels let a 75 KB file of 5000
        // one-pixel frames on a 1000×1000 canvas keep a decoder busy for minutes. A streamed
        // animation does that work one frame at a time, as each is shown.
        let budget = max(options.pixelLimit, canvasSize.area)
        // The process-wide budget (`DecodeMemory`): the canvases, a frame's indices, the first frame;
        // then every further frame, or the stream's bytes.
        var reservation: DecodeMemory.Reservation? = try options.memory.reserve(canvasSize.area * 9 + memory.frame)
        let scanned = options.firstFrameOnly ? nil : scan()
        let holding = FrameHolding.choose(count: scanned?.durations.count ?? 1, work: canvasSize.area, pixelBudget: budget,
                                          memory: memory, reservation: reservation, frameBytes: geometry.target.area * 4,
                                          encodedBytes: data.count, options: options)
        if case .stream(let bytes) = holding, let scanned {
            reservation = nil
            let box = options.targetSize, pixelLimit = options.pixelLimit
            return try FrameStream.image(
                of: data, durations: scanned.durations, bytes: bytes, workingBytes: canvasSize.area * 9, size: geometry.target,
                loopCount: scanned.loopCount, sourceSize: canvasSize, options: options,
                open: { try GIFFrameReader($0, box: box, pixelLimit: pixelLimit) })
        }
        let frames = try reader.holdFrames(count: scanned?.durations.count ?? 1, pregrown: holding.pregrown, work: canvasSize.area,
                                           pixelBudget: budget, memory: memory, reservation: reservation)
        withExtendedLifetime(reservation) {}
        return Image(
            width: geometry.target.width, height: geometry.target.height, pixels: frames[0].pixels,
            frames: frames.count > 1 ? frames : [], loopCount: scanned?.loopCount ?? reader.loopCount, sourceSize: canvasSize
        )
    }

    /// The frame's colour indices in display row order (de-interlaced). `firstPassOnly` (an
    /// interlaced frame): only its first pass, every 8th row from row 0, each standing for the 7
    /// rows below it.
    static func readFrame(_ gif: UnsafeMutablePointer<GifFileType>, limit: Int, firstPassOnly: Bool = false) throws -> [UInt8] {
        let desc = gif.pointee.Image
        let w = Int(desc.Width), h = Int(desc.Height)
        guard w > 0, h > 0 else { throw DecodeError.corrupt(format: "GIF", reason: "empty frame") }
        guard PixelSize(width: w, height: h).area <= limit else { throw DecodeError.tooLarge(width: w, height: h) }
        var indices = [UInt8](repeating: 0, count: w * h)
        var order = Array(0..<h)
        if desc.Interlace {
            let passes = firstPassOnly ? [(0, 8)] : [(0, 8), (4, 8), (2, 4), (1, 2)]
            order = passes.flatMap { start, step in Array(stride(from: start, to: h, by: step)) }
        }
        try indices.withUnsafeMutableBufferPointer { buffer in
            for row in order {
                guard DGifGetLine(gif, buffer.baseAddress.map { $0 + row * w }, Int32(w)) == GIF_OK else { throw failure(gif.pointee.Error) }
            }
            guard firstPassOnly && desc.Interlace, let base = buffer.baseAddress else { return }
            for row in order {
                for below in (row + 1)..<min(h, row + 8) { (base + below * w).update(from: base + row * w, count: w) }
            }
        }
        return indices
    }

    /// An interlaced GIF whose target is at most 1/8 of its height, once the first pass of its first
    /// frame has arrived: every 8th row, which holds every row the target shows, as the image (its
    /// first frame: a cell shows no animation). Nil before, for other GIFs, or on any error.
    static func firstPass(_ data: Data, options: DecodeOptions) -> Image? {
        data.withUnsafeBytes { raw -> Image? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var code: Int32 = 0
            guard let gif = sdg_gif_open_memory(base, raw.count, &code) else { return nil }
            defer { sdg_gif_close(gif) }
            let canvasSize = PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
            let geometry = DecodeGeometry(stored: canvasSize, box: options.targetSize)
            guard options.targetSize != nil, canvasSize.width > 0, geometry.target.height * 8 <= canvasSize.height,
                  (try? geometry.checkLimit(options.pixelLimit)) != nil,
                  OutputBudget(options, working: canvasSize.area * 4 * 2, framePixelBytes: geometry.target.area * 4).allows(frames: 1)
            else { return nil }
            // Looked for while bytes arrive: never waits for memory (`DecodeMemory`).
            guard let reservation = options.memory.tryReserve(canvasSize.area * 9 + geometry.target.area * 4) else { return nil }
            defer { withExtendedLifetime(reservation) {} }
            var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
            var loopCount = 1
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else { return nil }
                switch record {
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(gif) == GIF_OK, gif.pointee.Image.Interlace,
                          let indices = try? readFrame(gif, limit: options.pixelLimit, firstPassOnly: true) else { return nil }
                    var compositor = GIFCompositor(size: canvasSize)
                    guard (try? compositor.draw(gif.pointee.Image, indices: indices, global: gif.pointee.SColorMap, control: control)) != nil else { return nil }
                    let bitmap = Bitmap(width: canvasSize.width, height: canvasSize.height, pixels: compositor.canvas)
                    return bitmap.scaled(to: geometry.target).image(sourceSize: canvasSize)
                case EXTENSION_RECORD_TYPE:
                    guard (try? readExtension(gif, control: &control, loopCount: &loopCount)) != nil else { return nil }
                default:
                    return nil
                }
            }
        }
    }

    /// Reads one extension: the graphics control block (delay, disposal, transparency) and the
    /// NETSCAPE2.0 loop count; skips the rest.
    static func readExtension(_ gif: UnsafeMutablePointer<GifFileType>, control: inout GraphicsControlBlock, loopCount: inout Int) throws {
        var function: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &function, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
        var isNetscape = false
        if let b = block {
            let length = Int(b[0])
            if function == GRAPHICS_EXT_FUNC_CODE && length >= 4 {
                _ = DGifExtensionToGCB(length, b + 1, &control)
            } else if function == APPLICATION_EXT_FUNC_CODE && length == 11 {
                let name = String(decoding: UnsafeBufferPointer(start: b + 1, count: 11), as: UTF8.self)
                isNetscape = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
            }
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure(gif.pointee.Error) }
            if isNetscape, let b = block, b[0] >= 3, b[1] == 1 {
                let repeats = Int(b[2]) | Int(b[3]) << 8  // GIF counts repeats after the first play
                loopCount = repeats == 0 ? 0 : repeats + 1
            }
        }
    }

    static func failure(_ code: Int32) -> DecodeError {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON { return .truncated(format: "GIF") }
        return .corrupt(format: "GIF", reason: String(cString: sdg_gif_error_string(code)))
    }
}
