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

    /// Creates a painter with the renderer `profile` decided.
    public init(profile: TerminalProfile, cache: EncodedOutputCache = EncodedOutputCache()) {
        self.init(renderer: profile.makeRenderer(), cache: cache)
    }

    /// Creates a painter around one renderer.
    public init(renderer: any ImageRenderer, cache: EncodedOutputCache = EncodedOutputCache()) {
        self.renderer = renderer
        self.cache = cache
    }

    /// The renderer's samples per cell (`RendererKind.samplesPerCell`).
    public var samplesPerCell: PixelSize? { renderer.identity.kind.samplesPerCell }

    /// Paints `image` inside `cells`; nil when the rectangle is empty or the image unusable.
    public func paint(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        guard cells.columns > 0, cells.rows > 0 else { return nil }
        guard let rendered = try? cache.render(image, cells: cells, cellPixelSize: .cell(width: cellPixels.width, height: cellPixels.height), with: renderer) else {
            return nil
        }
        return identified(rendered, image: image, cells: cells)
    }

    /// The encoded-output cache's picture of `image` in `cells`, if it holds one.
    public func painted(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        guard cells.columns > 0, cells.rows > 0 else { return nil }
        let key = EncodedOutputKey(imageID: image.id, cells: cells, renderer: renderer.identity,
                                   cellPixelSize: .cell(width: cellPixels.width, height: cellPixels.height))
        return cache.value(for: key).map { identified($0, image: image, cells: cells) }
    }

    private func identified(_ rendered: RenderedImage, image: Image, cells: CellSize, animation: Bool = false) -> RenderedImage {
        var rendered = rendered
        var hasher = Hasher()
        hasher.combine(image.id)
        hasher.combine(cells)
        hasher.combine(renderer.identity)
        hasher.combine(animation)
        rendered.identity = UInt64(bitPattern: Int64(hasher.finalize()))
        return rendered
    }

    /// Whether the renderer's terminal plays animations (kitty).
    public var playsAnimations: Bool { renderer is any AnimationRenderer }

    /// Every frame of `image` inside `cells`, as one picture the terminal plays (kitty).
    public func paintAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        guard cells.columns > 0, cells.rows > 0, let renderer = renderer as? any AnimationRenderer,
              let rendered = try? cache.renderAnimation(image, cells: cells, cellPixelSize: .cell(width: cellPixels.width, height: cellPixels.height),
                                                        with: renderer) else { return nil }
        return identified(rendered, image: image, cells: cells, animation: true)
    }

    /// The encoded-output cache's animation of `image` in `cells`, if it holds one.
    public func paintedAnimation(_ image: Image, cells: CellSize, cellPixels: PixelSize) -> RenderedImage? {
        guard cells.columns > 0, cells.rows > 0, playsAnimations else { return nil }
        let key = EncodedOutputKey(imageID: image.id, cells: cells, renderer: renderer.identity,
                                   cellPixelSize: .cell(width: cellPixels.width, height: cellPixels.height), animation: true)
        return cache.value(for: key).map { identified($0, image: image, cells: cells, animation: true) }
    }

    /// kitty images the encoded-output cache dropped (their data can be freed in the terminal).
    public func takeReleasedUploads() -> [UInt32] { cache.takeFreedKittyImageIDs() }
}
