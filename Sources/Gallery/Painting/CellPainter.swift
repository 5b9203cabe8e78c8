import ImageCodecs
import TerminalGraphics

/// Turns a decoded image into the bytes that draw it in a rectangle of cells: `RendererPainter` over
/// the TerminalGraphics renderers (sixel, kitty, half-block, ASCII), with their encoded-output cache.
/// Called on the UI thread; must be quick for a thumbnail (cache inside when encoding is expensive).
/// What the terminal does with the bytes (scrolling, erasing) is not the painter's: `TerminalStrategy`.
public protocol CellPainter: Sendable {
    /// Paints `image` to fit inside `cells` (aspect ratio kept, top-left anchored); nil when it cannot.
    func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage?
    /// What `paint` would return when it is already encoded (a cache hit); nil otherwise. Never
    /// encodes: cheap enough for the UI thread.
    func painted(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage?
    /// Whether the terminal plays animations itself (kitty): `paintAnimation` paints every frame
    /// into one picture, and nothing is sent per frame after it.
    var playsAnimations: Bool { get }
    /// Paints every frame of animated `image` as one picture the terminal plays; nil when it
    /// cannot (or the painter does not play animations).
    func paintAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage?
    /// What `paintAnimation` would return when it is already encoded; nil otherwise. Never encodes.
    func paintedAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage?
    /// Upload ids (`RenderedImage.upload`) whose data the painter dropped since the last call: the
    /// terminal may free them.
    func takeReleasedUploads() -> [UInt32]
    /// Image pixels one cell of this painter's output shows, when it draws text (half blocks 1×2,
    /// quadrants 2×2, sextants 2×3, ASCII 1×1); nil for bitmaps, which show the cell's pixels.
    var samplesPerCell: PixelSize? { get }
}

extension CellPainter {
    /// Nothing at hand: painters without a cache.
    public func painted(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? { nil }
    /// No: the gallery plays animations frame by frame (`CellAnimations`).
    public var playsAnimations: Bool { false }
    /// Nil: painters that do not play animations.
    public func paintAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? { nil }
    /// Nil: painters that do not play animations.
    public func paintedAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? { nil }
    /// None: painters without uploads.
    public func takeReleasedUploads() -> [UInt32] { [] }
    /// Nil: a painter that does not say shows every pixel of its cells.
    public var samplesPerCell: PixelSize? { nil }
}
