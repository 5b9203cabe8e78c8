import ImageCodecs
import TerminalGraphics

/// The gallery's `CellPainter` on the TerminalGraphics renderers (sixel via libsixel, kitty,
/// half-block in the terminal's colour depth, ASCII), with the encoded-output cache in front: a
/// repaint of the same image in the same rectangle reuses the bytes instead of encoding again.
public struct RendererPainter: CellPainter {
    /// The renderer every image goes through.
    public let renderer: any ImageRenderer
    /// Encoded output by (image, rectangle, renderer, cell size).
    public let cache: EncodedOutputCache

    /// Creates a painter for `selection` (see `RendererSelection.choose`). `background` is the
    /// terminal's background as it reported it (OSC 11), nil when it did not: sixel output then
    /// leaves transparent pixels undrawn instead of guessing a colour.
    public init(selection: RendererSelection, background: RGBColor?, cache: EncodedOutputCache = EncodedOutputCache()) {
        var renderer = selection.makeRenderer(background: background ?? .black)
        if background == nil, var sixel = renderer as? SixelRenderer {
            sixel.keepsTransparency = true
            renderer = sixel
        }
        self.renderer = renderer
        self.cache = cache
    }

    /// Creates a painter around one renderer.
    public init(renderer: any ImageRenderer, cache: EncodedOutputCache = EncodedOutputCache()) {
        self.renderer = renderer
        self.cache = cache
    }

    /// Paints `image` inside `cells`; nil when the rectangle is empty or the image unusable.
    public func paint(_ image: Image, cells: TermSize, cellPixels: PixelSize) -> PaintedImage? {
        guard cells.columns > 0, cells.rows > 0 else { return nil }
        let cellSize = CellSize(columns: cells.columns, rows: cells.rows)
        let pixelSize = CellPixelSize(width: max(1, cellPixels.width), height: max(1, cellPixels.height))
        guard let rendered = try? cache.render(image, cells: cellSize, cellPixelSize: pixelSize, with: renderer) else {
            return nil
        }
        var hasher = Hasher()
        hasher.combine(image.id)
        hasher.combine(cellSize)
        hasher.combine(renderer.identity)
        let identity = UInt64(bitPattern: Int64(hasher.finalize()))
        let covered = TermSize(columns: rendered.cells.columns, rows: rendered.cells.rows)
        switch rendered.kind {
        case .halfBlock, .ascii:
            return PaintedImage(rows: rendered.rows, cells: covered, identity: identity)
        case .sixel:
            return PaintedImage(bytes: rendered.bytes, cells: covered, identity: identity)
        case .kitty:
            // `bytes` (transmit + place) serves output without a frame writer (--print); placed on
            // the screen, the frame writer uploads once and places per cell.
            let upload = rendered.kittyImageID.map {
                ImageUpload(id: $0, bytes: rendered.kittyUpload ?? [], tmuxPassthrough: renderer.identity.tmuxPassthrough)
            }
            return PaintedImage(bytes: rendered.bytes, cells: covered, identity: identity, upload: upload)
        }
    }

    /// kitty images the encoded-output cache dropped (their data can be freed in the terminal).
    public func takeReleasedUploads() -> [UInt32] { cache.takeFreedKittyImageIDs() }
}
