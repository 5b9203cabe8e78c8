import CSixel
import ImageCodecs

/// Error diffusion used when mapping pixels to the sixel palette.
public enum SixelDiffusion: Int32, Sendable, Hashable {
    /// No dithering (flat areas, banding on gradients).
    case none = 1
    /// Bill Atkinson's (lighter, keeps contrast).
    case atkinson = 2
    /// Floyd–Steinberg.
    case floydSteinberg = 3
}

/// DEC sixel through libsixel: the image is scaled to fit the cell rectangle's pixel size (aspect
/// kept), its height padded with the background to a multiple of 6 (one sixel band) without
/// leaving the rectangle, transparent pixels blended against the background, and quantized to a
/// palette of at most 256 colours with error diffusion.
public struct SixelRenderer: ImageRenderer {
    /// Background transparent pixels (and the height padding) are blended against.
    public var background: RGBColor
    /// Palette size, 2…256.
    public var maxColors: Int
    /// Error diffusion.
    public var diffusion: SixelDiffusion
    /// Whether to wrap the output for tmux passthrough (tmux < 3.4 drops raw sixel).
    public var tmuxPassthrough: Bool

    /// Creates a sixel renderer.
    public init(
        background: RGBColor = .black, maxColors: Int = 256, diffusion: SixelDiffusion = .atkinson,
        tmuxPassthrough: Bool = false
    ) {
        self.background = background
        self.maxColors = min(256, max(2, maxColors))
        self.diffusion = diffusion
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// Kind `.sixel` with the background and passthrough flag.
    public var identity: RendererIdentity {
        RendererIdentity(kind: .sixel, background: background, tmuxPassthrough: tmuxPassthrough)
    }

    /// The pixel size an image is scaled to (before padding) for a cell rectangle.
    public static func scaledSize(for image: PixelSize, cells: CellSize, cellPixelSize: CellPixelSize) -> PixelSize {
        var box = cellPixelSize.pixels(for: cells)
        box.height = max(6, box.height - box.height % 6)
        return PixelScaler.fit(image, in: box)
    }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: CellPixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let size = Self.scaledSize(for: image.size, cells: cells, cellPixelSize: cellPixelSize)
        var rgb = PixelScaler.rgb(image, size: size, background: background)
        let paddedHeight = (size.height + 5) / 6 * 6
        for _ in size.height..<paddedHeight {
            for _ in 0..<size.width { rgb += [background.r, background.g, background.b] }
        }
        var bytes = try Self.encode(rgb: rgb, width: size.width, height: paddedHeight, colors: maxColors, diffusion: diffusion)
        if tmuxPassthrough { bytes = TmuxPassthrough.wrap(bytes) }
        return RenderedImage(
            kind: .sixel, bytes: bytes,
            cells: CellSize(
                columns: (size.width + cellPixelSize.width - 1) / cellPixelSize.width,
                rows: (paddedHeight + cellPixelSize.height - 1) / cellPixelSize.height),
            pixelSize: PixelSize(width: size.width, height: paddedHeight))
    }

    /// Encodes packed RGB888 pixels with libsixel (bytes collected by its write callback).
    static func encode(
        rgb: [UInt8], width: Int, height: Int, colors: Int, diffusion: SixelDiffusion
    ) throws(RenderError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let status = rgb.withUnsafeBufferPointer {
            sdg_sixel_encode_rgb($0.baseAddress, Int32(width), Int32(height), Int32(colors), diffusion.rawValue, &out, &length)
        }
        defer { sdg_sixel_free(out) }
        guard status == 0, let out else { throw .sixelFailed(status: status) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Decodes a sixel stream with libsixel's decoder (`sixel_decode_raw`) to packed RGB888; for
    /// tests and tools.
    public static func decode(_ bytes: [UInt8]) throws(RenderError) -> (width: Int, height: Int, rgb: [UInt8]) {
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0
        var height: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            sdg_sixel_decode_rgb($0.baseAddress, $0.count, &pixels, &width, &height)
        }
        defer { sdg_sixel_free(pixels) }
        guard status == 0, let pixels else { throw .sixelFailed(status: status) }
        return (Int(width), Int(height), Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 3)))
    }
}
