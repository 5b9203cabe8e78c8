/// The frames of an animated WebP, walked once in order (the container's `ANMF` chunks, RIFF
/// framing as the WebP container spec gives it): each frame's rectangle, timing, blend and dispose
/// flags, and its bitstream (`ALPH` + `VP8 `, or `VP8L`), which libwebp decodes by itself.
///
/// Why not libwebp's `WebPAnimDecoder`: it finds frame n by walking the demuxer's list from the
/// first frame (`GetFrame` in demux.c), so an animation of n frames costs n²/2 steps: 80,000
/// frames took 10.7 s, 200,000 did not end in a minute. Walking the chunks is linear.
struct WebPAnimation {
    struct Frame {
        /// Top-left on the canvas (even numbers), size.
        var x: Int, y: Int, width: Int, height: Int
        /// Milliseconds.
        var duration: Int
        /// Alpha-blend over the canvas (else replace the rectangle).
        var blends: Bool
        /// Clear the rectangle to transparent before the next frame.
        var disposesToBackground: Bool
        /// The frame's bitstream: its `ALPH` chunk if any, then its `VP8 ` or `VP8L` chunk.
        var bitstream: Range<Int>
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let canvas: PixelSize
    let loopCount: Int
    /// Offset of the first chunk after the header chunks.
    private let firstChunk: Int

    /// Parses the RIFF header, `VP8X` and `ANIM`; nil when this is not an animated WebP container.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        guard bytes.count >= 30, Self.tag(bytes, 0) == "RIFF", Self.tag(bytes, 8) == "WEBP", Self.tag(bytes, 12) == "VP8X",
              Self.le(bytes, 16, 4) >= 10 else { return nil }
        canvas = PixelSize(width: Self.le(bytes, 24, 3) + 1, height: Self.le(bytes, 27, 3) + 1)
        var offset = 12
        var loops = 0
        var first: Int?
        while let chunk = Self.chunk(bytes, at: offset) {
            if chunk.tag == "ANIM", chunk.payload.count >= 6 { loops = Self.le(bytes, chunk.payload.lowerBound + 4, 2) }
            if chunk.tag == "ANMF" { first = offset; break }
            offset = chunk.next
        }
        guard let first else { return nil }
        firstChunk = first
        loopCount = loops
    }

    /// Calls `body` with each well-formed frame in order; stops when it returns false, at the end, or
    /// at the first damaged chunk (the frames before it stand, as for a GIF without its trailer).
    func forEachFrame(_ body: (Frame) throws -> Bool) rethrows {
        var offset = firstChunk
        while let (frame, next) = frame(at: offset) {
            offset = next
            if try !body(frame) { return }
        }
    }

    /// Where the first frame's chunk starts (`frame(at:)`).
    var firstFrameOffset: Int { firstChunk }

    /// The first well-formed frame at or after the chunk at `offset`, and where the chunk after it
    /// starts; nil at the end or at a damaged chunk.
    func frame(at offset: Int) -> (frame: Frame, next: Int)? {
        var offset = offset
        while let chunk = Self.chunk(bytes, at: offset) {
            offset = chunk.next
            guard chunk.tag == "ANMF" else { continue }
            guard let frame = frame(chunk.payload) else { return nil }
            return (frame, offset)
        }
        return nil
    }

    private func frame(_ payload: Range<Int>) -> Frame? {
        guard payload.count >= 16 else { return nil }
        let p = payload.lowerBound
        let flags = bytes[p + 15]
        var frame = Frame(
            x: Self.le(bytes, p, 3) * 2, y: Self.le(bytes, p + 3, 3) * 2,
            width: Self.le(bytes, p + 6, 3) + 1, height: Self.le(bytes, p + 9, 3) + 1,
            duration: Self.le(bytes, p + 12, 3), blends: flags & 2 == 0, disposesToBackground: flags & 1 != 0,
            bitstream: 0..<0)
        guard frame.x + frame.width <= canvas.width, frame.y + frame.height <= canvas.height else { return nil }
        var offset = p + 16
        var start: Int?
        while offset < payload.upperBound, let chunk = Self.chunk(bytes, at: offset), chunk.next <= payload.upperBound + 1 {
            switch chunk.tag {
            case "ALPH": start = start ?? offset
            case "VP8 ", "VP8L":
                frame.bitstream = (start ?? offset)..<min(chunk.payload.upperBound, bytes.count)
                return frame
            default: break
            }
            offset = chunk.next
        }
        return nil
    }

    /// The chunk at `offset`: its four-character tag, payload, and where the next one starts (payloads
    /// are padded to even lengths). Nil past the end or when the payload runs past the data.
    private static func chunk(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) -> (tag: String, payload: Range<Int>, next: Int)? {
        guard offset + 8 <= b.count else { return nil }
        let size = le(b, offset + 4, 4)
        guard size <= b.count - offset - 8 else { return nil }
        let payload = (offset + 8)..<(offset + 8 + size)
        return (tag(b, offset), payload, payload.upperBound + (size & 1))
    }

    private static func tag(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> String {
        String(decoding: b[offset..<(offset + 4)], as: UTF8.self)
    }

    /// A little-endian number of `count` bytes.
    private static func le(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in (0..<count).reversed() { value = value << 8 | Int(b[offset + i]) }
        return value
    }

    /// Draws `frame` (`pixels`: its RGBA, straight alpha) onto `canvas` as libwebp's animation decoder
    /// does: replaced, or blended over what is there (non-premultiplied "source over"; a transparent
    /// canvas pixel takes the frame's as it is).
    static func draw(_ frame: Frame, pixels: UnsafePointer<UInt8>, on canvas: UnsafeMutablePointer<UInt8>, canvasWidth: Int) {
        for row in 0..<frame.height {
            let src = pixels + row * frame.width * 4
            let dst = canvas + ((frame.y + row) * canvasWidth + frame.x) * 4
            guard frame.blends else { dst.update(from: src, count: frame.width * 4); continue }
            for i in stride(from: 0, to: frame.width * 4, by: 4) {
                let srcA = UInt32(src[i + 3]), dstA = UInt32(dst[i + 3])
                if srcA == 0 { continue }
                if srcA == 255 || dstA == 0 { (dst + i).update(from: src + i, count: 4); continue }
                let dstFactor = (dstA * (256 - srcA)) >> 8
                let alpha = srcA + dstFactor
                let scale = (UInt32(1) << 24) / alpha
                for c in 0..<3 {
                    dst[i + c] = UInt8(truncatingIfNeeded: ((UInt32(src[i + c]) * srcA + UInt32(dst[i + c]) * dstFactor) * scale) >> 24)
                }
                dst[i + 3] = UInt8(truncatingIfNeeded: alpha)
            }
        }
    }

    /// Clears `frame`'s rectangle of `canvas` to transparent (dispose to background).
    static func clear(_ frame: Frame, on canvas: UnsafeMutablePointer<UInt8>, canvasWidth: Int) {
        for row in 0..<frame.height {
            (canvas + ((frame.y + row) * canvasWidth + frame.x) * 4).update(repeating: 0, count: frame.width * 4)
        }
    }
}
