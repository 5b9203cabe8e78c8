import CWebP

/// An animated WebP's decoder positioned at its next frame: libwebp decodes the frame's bitstream,
/// which is drawn on the canvas here (`WebPAnimation`) and the canvas scaled to the target. The one
/// frame loop of the whole decode (`WebPDecoder`) and of a streamed animation (`FrameStream`).
final class WebPFrameReader: FrameReader {
    private let animation: WebPAnimation
    /// The file the reader reads, kept alive while it does (nil: the caller keeps it).
    private let file: EncodedBytes?
    private let target: PixelSize
    private var offset: Int
    private var canvas: [UInt8]
    private var decoded: [UInt8]
    private var disposal: WebPAnimation.Frame?
    /// The duration in seconds of the frame `next()` returned last (0.1 for 11 ms or less).
    private(set) var duration = 0.0
    let format = "WebP"

    /// Bytes of its working canvases (the canvas, one frame's decode and the copy scaled from).
    static func workingBytes(canvas: PixelSize) -> Int { canvas.area * 4 * 3 }

    /// A reader of `animation` (over bytes `file` keeps alive, else the caller), scaled to `target`.
    init(_ animation: WebPAnimation, file: EncodedBytes?, target: PixelSize) {
        self.animation = animation
        self.file = file
        self.target = target
        offset = animation.firstFrameOffset
        canvas = [UInt8](repeating: 0, count: animation.canvas.area * 4)
        decoded = [UInt8](repeating: 0, count: animation.canvas.area * 4)
    }

    /// A reader of `file`, a copy of an animated WebP.
    convenience init(_ file: EncodedBytes, target: PixelSize) throws(DecodeError) {
        guard let start = file.start, let animation = WebPAnimation(UnsafeBufferPointer(start: start, count: file.count)) else {
            throw DecodeError.corrupt(format: "WebP", reason: "invalid animation")
        }
        self.init(animation, file: file, target: target)
    }

    /// Whether `frame`'s bitstream is the frame's size (as libwebp's demuxer checks): a 7×5 frame
    /// holding a 7×1025 bitstream made libwebp allocate for the bitstream's size.
    static func bitstreamFits(_ frame: WebPAnimation.Frame, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var w: Int32 = 0, h: Int32 = 0, alpha: Int32 = 0, animated: Int32 = 0
        let features = sdg_webp_features(base + frame.bitstream.lowerBound, frame.bitstream.count, &w, &h, &alpha, &animated)
        return features == 0 && Int(w) == frame.width && Int(h) == frame.height && animated == 0
    }

    /// The next frame at the target size; nil after the last. Throws where the file is damaged.
    func next() throws(DecodeError) -> [UInt8]? {
        guard let (frame, next) = animation.frame(at: offset), let base = animation.bytes.baseAddress else { return nil }
        offset = next
        guard Self.bitstreamFits(frame, in: animation.bytes) else {
            throw DecodeError.corrupt(format: "WebP", reason: "a frame's bitstream is not its size")
        }
        let status = decoded.withUnsafeMutableBufferPointer { out in
            sdg_webp_decode_rgba(base + frame.bitstream.lowerBound, frame.bitstream.count, Int32(frame.width), Int32(frame.height),
                                 out.baseAddress, frame.width * frame.height * 4)
        }
        guard status == 0 else { throw WebPDecoder.failure(status) }
        let width = animation.canvas.width
        canvas.withUnsafeMutableBufferPointer { canvasPixels in
            guard let onto = canvasPixels.baseAddress else { return }
            if let disposal { WebPAnimation.clear(disposal, on: onto, canvasWidth: width) }
            decoded.withUnsafeBufferPointer { pixels in
                if let source = pixels.baseAddress { WebPAnimation.draw(frame, pixels: source, on: onto, canvasWidth: width) }
            }
        }
        disposal = frame.disposesToBackground ? frame : nil
        let seconds = Double(frame.duration) / 1000
        duration = seconds > 0.011 ? seconds : 0.1
        return Bitmap(width: width, height: animation.canvas.height, pixels: canvas).scaled(to: target).pixels
    }
}
