import CGIF

/// The GIF canvas between frames: draws a frame's opaque pixels over it and applies the frame's
/// disposal (none, restore to background = transparent, restore to previous) afterwards.
struct GIFCompositor {
    let size: PixelSize
    private(set) var canvas: [UInt8]
    private var saved: [UInt8]?
    private var lastRect = (x: 0, y: 0, w: 0, h: 0)

    init(size: PixelSize) {
        self.size = size
        canvas = [UInt8](repeating: 0, count: size.width * size.height * 4)
    }

    /// Draws frame `desc` (colour `indices`, row-major) with its own or the global colour map.
    mutating func draw(_ desc: GifImageDesc, indices: [UInt8], global: UnsafeMutablePointer<ColorMapObject>?, control: GraphicsControlBlock) throws {
        guard let map = desc.ColorMap ?? global, let colors = map.pointee.Colors else {
            throw DecodeError.corrupt(format: "GIF", reason: "no colour map")
        }
        let count = Int(map.pointee.ColorCount)
        let fw = Int(desc.Width), fh = Int(desc.Height), left = Int(desc.Left), top = Int(desc.Top)
        if control.DisposalMode == DISPOSE_PREVIOUS { saved = canvas }
        let x0 = max(0, left), y0 = max(0, top)
        let x1 = min(size.width, left + fw), y1 = min(size.height, top + fh)
        lastRect = (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
        let transparent = Int(control.TransparentColor)
        guard x1 > x0, y1 > y0 else { return }
        let width = size.width
        canvas.withUnsafeMutableBufferPointer { dst in
            for y in y0..<y1 {
                var s = (y - top) * fw + (x0 - left)
                var d = (y * width + x0) * 4
                for _ in x0..<x1 {
                    let index = Int(indices[s])
                    if index != transparent && index < count {
                        let c = colors[index]
                        dst[d] = c.Red; dst[d + 1] = c.Green; dst[d + 2] = c.Blue; dst[d + 3] = 255
                    }
                    s += 1
                    d += 4
                }
            }
        }
    }

    /// Applies the disposal of the frame just drawn.
    mutating func dispose(control: GraphicsControlBlock) {
        switch control.DisposalMode {
        case DISPOSE_BACKGROUND:
            let r = lastRect
            for y in r.y..<(r.y + r.h) {
                let start = (y * size.width + r.x) * 4
                for i in start..<(start + r.w * 4) { canvas[i] = 0 }
            }
        case DISPOSE_PREVIOUS:
            if let saved { canvas = saved }
            saved = nil
        default:
            break
        }
    }
}
