import CGIF

/// A GIF decoder positioned at its next frame: reads records through giflib's record API, draws each
/// frame on the canvas with its disposal (`GIFCompositor`) and scales the canvas to the target. The
/// one frame loop of the whole decode (`GIFDecoder`) and of a streamed animation (`FrameStream`).
final class GIFFrameReader: FrameReader {
    private let gif: UnsafeMutablePointer<GifFileType>
    /// The file the reader reads, kept alive while it does (nil: the caller keeps it).
    private let bytes: EncodedBytes?
    /// The file's canvas.
    let canvasSize: PixelSize
    private let target: PixelSize
    private let pixelLimit: Int
    /// Made at the first frame: the canvas is allocated only once the decode has checked its size
    /// against its budgets (a 35-byte file announces 10000×10000).
    private var compositor: GIFCompositor?
    private var control = GIFFrameReader.noControl
    /// The NETSCAPE2.0 loop count read so far (1 without one).
    private(set) var loopCount = 1
    /// The duration in seconds of the frame `next()` returned last (0.1 for a delay of 0.01 s or less).
    private(set) var duration = 0.0
    let format = "GIF"

    static let noControl = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)

    /// A reader of the `count` bytes at `start` (kept alive by `bytes`, else by the caller while the
    /// reader lives), its frames scaled into `box` (`DecodeGeometry`; nil: the canvas's size).
    init(start: UnsafePointer<UInt8>, count: Int, bytes: EncodedBytes?, box: PixelSize?, pixelLimit: Int) throws(DecodeError) {
        var code: Int32 = 0
        guard let gif = sdg_gif_open_memory(start, count, &code) else { throw GIFDecoder.failure(code) }
        self.gif = gif
        self.bytes = bytes
        canvasSize = PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
        target = DecodeGeometry(stored: canvasSize, box: box).target
        self.pixelLimit = pixelLimit
    }

    /// A reader of `bytes`.
    convenience init(_ bytes: EncodedBytes, box: PixelSize?, pixelLimit: Int) throws(DecodeError) {
        guard let start = bytes.start, bytes.count > 0 else { throw DecodeError.empty }
        try self.init(start: start, count: bytes.count, bytes: bytes, box: box, pixelLimit: pixelLimit)
    }

    deinit { sdg_gif_close(gif) }

    /// The next frame at the target size; nil at the trailer. Throws where the file is damaged.
    func next() throws -> [UInt8]? {
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw GIFDecoder.failure(gif.pointee.Error) }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw GIFDecoder.failure(gif.pointee.Error) }
                let indices = try GIFDecoder.readFrame(gif, limit: pixelLimit)
                var compositor = self.compositor ?? GIFCompositor(size: canvasSize)
                self.compositor = nil  // drawn on in place, not copied
                try compositor.draw(gif.pointee.Image, indices: indices, global: gif.pointee.SColorMap, control: control)
                let bitmap = Bitmap(width: canvasSize.width, height: canvasSize.height, pixels: compositor.canvas)
                let delay = Double(control.DelayTime) / 100
                duration = delay > 0.011 ? delay : 0.1
                let pixels = bitmap.scaled(to: target).pixels
                compositor.dispose(control: control)
                self.compositor = compositor
                control = Self.noControl
                return pixels
            case EXTENSION_RECORD_TYPE:
                try GIFDecoder.readExtension(gif, control: &control, loopCount: &loopCount)
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                break
            }
        }
    }
}
