import ImageCodecs

/// Turns a decoded image into the bytes that draw it in a rectangle of cells. The seam where the
/// TerminalGraphics renderers (sixel, kitty, half-block in 256/16 colours, ASCII) plug in; the gallery
/// ships only `HalfBlockPainter` as a fallback. Called on the UI thread; must be quick for a thumbnail
/// (cache inside when encoding is expensive).
public protocol CellPainter: Sendable {
    /// Paints `image` to fit inside `cells` (aspect ratio kept, top-left anchored); nil when it cannot.
    func paint(_ image: Image, cells: TermSize, cellPixels: PixelSize) -> PaintedImage?
}
