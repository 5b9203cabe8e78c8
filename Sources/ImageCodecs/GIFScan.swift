import CGIF

/// A GIF's frames without their pixels: each frame's duration and the loop count, read by walking the
/// records (extensions read, each frame's image data skipped block by block with `DGifGetCode` and
/// `DGifGetCodeNext`, no LZW decoding). The frames counted are the ones a decode reaches: the scan
/// stops at `maxFrames`, at a frame with no pixels, over the pixel cap or without a colour map, and
/// at the first damaged record (frames complete before it count, as a decode keeps them).
struct GIFScan {
    /// Each frame's duration in seconds (0.1 for a delay of 0.01 s or less, as `GIFFrameReader`).
    private(set) var durations: [Double] = []
    /// The NETSCAPE2.0 loop count (1 without one).
    private(set) var loopCount = 1

    /// Scans the `count` bytes at `start`.
    init(start: UnsafePointer<UInt8>, count: Int, maxFrames: Int, pixelLimit: Int) {
        var code: Int32 = 0
        guard let gif = sdg_gif_open_memory(start, count, &code) else { return }
        defer { sdg_gif_close(gif) }
        var control = GIFFrameReader.noControl
        while durations.count < maxFrames {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return }
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { return }
                let desc = gif.pointee.Image
                let w = Int(desc.Width), h = Int(desc.Height)
                guard w > 0, h > 0, PixelSize(width: w, height: h).area <= pixelLimit,
                      desc.ColorMap ?? gif.pointee.SColorMap != nil, Self.skipImageData(gif) else { return }
                let delay = Double(control.DelayTime) / 100
                durations.append(delay > 0.011 ? delay : 0.1)
                control = GIFFrameReader.noControl
            case EXTENSION_RECORD_TYPE:
                guard (try? GIFDecoder.readExtension(gif, control: &control, loopCount: &loopCount)) != nil else { return }
            case TERMINATE_RECORD_TYPE:
                return
            default:
                break
            }
        }
    }

    /// Reads past a frame's image data (its LZW sub-blocks) without decoding it.
    private static func skipImageData(_ gif: UnsafeMutablePointer<GifFileType>) -> Bool {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { return false }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { return false }
        }
        return true
    }
}
