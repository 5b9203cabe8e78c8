import ImageCodecs

/// Turns an `Image` into terminal bytes for a rectangle of cells. Implementations are pure: they
/// return bytes and never write to a file descriptor.
///
/// ```swift
/// let renderer = profile.makeRenderer()   // a `TerminalProfile`
/// let out = try renderer.render(image, cells: CellSize(columns: 16, rows: 5),
///                               cellPixelSize: profile.cellPixelSize)
/// frameWriter.append(out.positioned(row: 3, column: 10))
/// ```
public protocol ImageRenderer: Sendable {
    /// What this renderer produces and with which settings; part of the encoded-output cache key.
    var identity: RendererIdentity { get }

    /// Renders `image` to fit inside `cells` (aspect ratio kept, anchored top-left).
    func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage
}

/// A renderer whose terminal plays animations itself (kitty's animation protocol): every frame is
/// sent once, and nothing per frame after that.
public protocol AnimationRenderer: ImageRenderer {
    /// Renders every frame of `image` to fit inside `cells`, as one picture the terminal plays.
    func renderAnimation(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage
}

/// Which renderer, for selection and cache keys.
public enum RendererKind: Sendable, Hashable, CustomStringConvertible {
    /// DEC sixel via libsixel.
    case sixel
    /// kitty graphics protocol, placed by id at the cursor.
    case kitty
    /// kitty graphics shown by Unicode placeholders (`KittyPlaceholders`): the image uploaded with a
    /// virtual placement, the cells written as text. Moves and erases like text.
    case kittyPlaceholders
    /// iTerm2 inline images (OSC 1337, PNG).
    case iterm2
    /// `▀` half blocks, two pixels per cell, in a colour depth.
    case halfBlock(ColorDepth)
    /// 2×2 quadrant blocks, two colours per cell, in a colour depth.
    case quadrant(ColorDepth)
    /// 2×3 sextant blocks, two colours per cell, in a colour depth.
    case sextant(ColorDepth)
    /// ASCII luminance ramp.
    case ascii

    /// "sixel", "kitty", "half-block (256)", "ascii".
    public var description: String {
        switch self {
        case .sixel: "sixel"
        case .kitty: "kitty"
        case .kittyPlaceholders: "kitty (Unicode placeholders)"
        case .iterm2: "iterm2"
        case .halfBlock(let depth): "half-block (\(depth.rawValue))"
        case .quadrant(let depth): "quadrants (\(depth.rawValue))"
        case .sextant(let depth): "sextants (\(depth.rawValue))"
        case .ascii: "ascii"
        }
    }

    /// Image pixels one cell of this renderer's output shows when it draws text (half blocks 1×2,
    /// quadrants 2×2, sextants 2×3, ASCII 1×1); nil for bitmaps and kitty's placeholders, which show
    /// the cell's pixels.
    public var samplesPerCell: PixelSize? {
        switch self {
        case .sixel, .kitty, .kittyPlaceholders, .iterm2: nil
        case .halfBlock: PixelSize(width: 1, height: 2)
        case .quadrant: PixelSize(width: 2, height: 2)
        case .sextant: PixelSize(width: 2, height: 3)
        case .ascii: PixelSize(width: 1, height: 1)
        }
    }

    /// Whether the output is a bitmap (sixel/kitty) rather than text cells.
    public var isBitmap: Bool {
        switch self {
        case .sixel, .kitty, .iterm2: true
        case .kittyPlaceholders, .halfBlock, .quadrant, .sextant, .ascii: false
        }
    }
}

/// A renderer's kind plus every setting that changes its bytes.
public struct RendererIdentity: Sendable, Hashable {
    /// The renderer kind (with colour depth for half blocks).
    public var kind: RendererKind
    /// Background transparent pixels are blended against.
    public var background: RGBColor
    /// Whether output is wrapped for tmux passthrough.
    public var tmuxPassthrough: Bool
    /// Whether transparent pixels are left undrawn instead of blended against `background`.
    public var transparent: Bool
    /// The bitmap size limit output is scaled to fit (sixel; XTSMGRAPHICS).
    public var graphicsLimit: PixelSize?
    /// Whether sixel heights are kept to whole bands (sixel drawn by tmux).
    public var wholeBands: Bool

    /// Creates an identity.
    public init(kind: RendererKind, background: RGBColor, tmuxPassthrough: Bool = false, transparent: Bool = false,
                graphicsLimit: PixelSize? = nil, wholeBands: Bool = false) {
        self.graphicsLimit = graphicsLimit
        self.wholeBands = wholeBands
        self.kind = kind
        self.background = background
        self.tmuxPassthrough = tmuxPassthrough
        self.transparent = transparent
    }
}

/// Why an image could not be rendered.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The image has no pixels or its buffer does not match its size.
    case invalidImage(width: Int, height: Int, bytes: Int)
    /// The cell rectangle is empty.
    case emptyRectangle(CellSize)
    /// libsixel failed with this SIXELSTATUS.
    case sixelFailed(status: Int32)

    /// A short, human-readable reason.
    public var description: String {
        switch self {
        case .invalidImage(let w, let h, let n): "invalid image \(w)×\(h) with \(n) bytes"
        case .emptyRectangle(let cells): "empty cell rectangle \(cells)"
        case .sixelFailed(let status): "libsixel failed (status \(status))"
        }
    }
}

extension ImageRenderer {
    /// Checks the common preconditions (non-empty rectangle, consistent pixel buffer).
    func validate(_ image: Image, cells: CellSize) throws(RenderError) {
        guard !cells.isEmpty else { throw .emptyRectangle(cells) }
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else {
            throw .invalidImage(width: image.width, height: image.height, bytes: image.pixels.count)
        }
    }
}
