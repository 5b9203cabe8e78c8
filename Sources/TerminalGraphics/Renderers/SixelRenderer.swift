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
/// kept) and quantized to a palette of at most 256 colours with error diffusion. Every stream says
/// `P2=1` (pixels not drawn stay as they are): the last sixel band's rows below the image are not
/// painted (no colour-0 line under images). Transparent pixels are blended against the terminal's
/// background when it is known (`keepsTransparency` false), else not drawn at all.
public struct SixelRenderer: ImageRenderer {
    /// Background transparent pixels are blended against (when `keepsTransparency` is false).
    public var background: RGBColor
    /// Leave transparent pixels (alpha < 50%) undrawn instead of blending them against `background`:
    /// for terminals that did not tell their background colour (xterm does not answer OSC 11).
    public var keepsTransparency: Bool
    /// Palette size, 2…256.
    public var maxColors: Int
    /// Error diffusion.
    public var diffusion: SixelDiffusion
    /// Whether to wrap the output for tmux passthrough (tmux < 3.4 drops raw sixel).
    public var tmuxPassthrough: Bool
    /// The largest bitmap the terminal shows (XTSMGRAPHICS; xterm's default is 1000×1000 and it drops
    /// a bigger image whole): images are scaled to fit inside it too.
    public var graphicsLimit: PixelSize?
    /// Keep the bitmap's height a multiple of 6 (whole sixel bands) inside the cell box: tmux ≥ 3.4
    /// counts the cells a sixel covers from its banded height and stretches it to them, so a 153 px
    /// image in a 9-row box of 17 px cells (156 px in bands) took 10 rows and covered the caption.
    public var wholeBands = false

    /// Creates a sixel renderer.
    public init(
        background: RGBColor = .black, maxColors: Int = 256, diffusion: SixelDiffusion = .atkinson,
        tmuxPassthrough: Bool = false, keepsTransparency: Bool = false, graphicsLimit: PixelSize? = nil
    ) {
        self.graphicsLimit = graphicsLimit
        self.background = background
        self.keepsTransparency = keepsTransparency
        self.maxColors = min(256, max(2, maxColors))
        self.diffusion = diffusion
        self.tmuxPassthrough = tmuxPassthrough
    }

    /// Kind `.sixel` with the background and passthrough flag.
    public var identity: RendererIdentity {
        RendererIdentity(kind: .sixel, background: background, tmuxPassthrough: tmuxPassthrough,
                         transparent: keepsTransparency, graphicsLimit: graphicsLimit, wholeBands: wholeBands)
    }

    /// The pixel size an image is scaled to for a cell rectangle (and within `limit`, when given).
    public static func scaledSize(for image: PixelSize, cells: CellSize, cellPixelSize: PixelSize,
                                  limit: PixelSize? = nil) -> PixelSize {
        var box = cellPixelSize.pixels(for: cells)
        if let limit, limit.width > 0, limit.height > 0 {
            box = PixelSize(width: min(box.width, limit.width), height: min(box.height, limit.height))
        }
        return image.scaledToFit(box)
    }

    /// The most of `height` pixels that whole sixel bands fill (at least one band): the height a
    /// `wholeBands` image may take.
    public static func bandedHeight(_ height: Int) -> Int { max(6, height / 6 * 6) }

    /// tmux drawing the sixel with the background unknown: the size of whole cells across and whole
    /// bands of whole rows down nearest `fit` (the picture fitted as usual) within 3% of the picture's
    /// aspect, or nil. tmux stretches a sixel over whole cells and the terminal paints the pixels it
    /// leaves undrawn with register 0, a colour that cannot match a background nobody told.
    static func wholeCells(for image: PixelSize, fitting fit: PixelSize, within box: PixelSize, cell: PixelSize) -> PixelSize? {
        guard image.width > 0, image.height > 0, cell.width > 0, cell.height > 0 else { return nil }
        let aspect = Double(image.width) / Double(image.height)
        let most = (fit.height + cell.height - 1) / cell.height
        for rows in stride(from: most, through: max(1, most - 1), by: -1) {
            let height = bandedHeight(rows * cell.height)
            guard height <= box.height, height > (rows - 1) * cell.height else { continue }
            let columns = min(box.width / cell.width, Int((aspect * Double(height) / Double(cell.width)).rounded()))
            guard columns >= 1 else { continue }
            let size = PixelSize(width: columns * cell.width, height: height)
            if abs(Double(size.width) / Double(size.height) / aspect - 1) <= 0.03 { return size }
        }
        return nil
    }

    /// tmux drawing the sixel (`wholeBands`): the picture's size and the bitmap's height (the picture
    /// padded with the background below). tmux counts the cells a sixel covers from its height in
    /// whole bands (a 117 px image is 120, 8 rows of 17 px where it meant 7), so the picture is kept
    /// within the whole bands of its own last cell row, at most 5 px shorter. tmux also stretches it
    /// over those cells and leaves what it does not cover undrawn, showing whatever the terminal had
    /// there (foot kept a strip of the loading cell's fill): the bitmap fills its last cell row with
    /// the background; with the background unknown the picture fills whole cells itself instead.
    private func inWholeBands(_ image: PixelSize, fitted: PixelSize, within limit: PixelSize, cell: PixelSize) -> (PixelSize, Int) {
        var size = fitted
        let rows = (size.height + cell.height - 1) / max(1, cell.height)
        let banded = keepsTransparency ? Self.bandedHeight(size.height) : Self.bandedHeight(rows * cell.height)
        if size.height > banded { size = image.scaledToFit(PixelSize(width: size.width, height: banded)) }
        if keepsTransparency {
            let whole = Self.wholeCells(for: image, fitting: size, within: limit, cell: cell) ?? size
            return (whole, whole.height)
        }
        let padded = Self.bandedHeight((size.height + cell.height - 1) / max(1, cell.height) * cell.height)
        return (size, max(size.height, padded))
    }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        var limit = graphicsLimit
        if wholeBands {
            let box = cellPixelSize.pixels(for: cells)
            limit = PixelSize(width: min(limit?.width ?? box.width, box.width), height: Self.bandedHeight(min(limit?.height ?? box.height, box.height)))
        }
        var size = Self.scaledSize(for: image.size, cells: cells, cellPixelSize: cellPixelSize, limit: limit)
        var height = size.height
        if wholeBands, let limit { (size, height) = inWholeBands(image.size, fitted: size, within: limit, cell: cellPixelSize) }
        var rgb: [UInt8]
        var mask: [UInt8]? = nil
        if keepsTransparency {
            let rgba = image.pixels(scaledTo: size)
            let count = size.width * size.height
            rgb = [UInt8](repeating: 0, count: count * 3)
            var keyed = [UInt8](repeating: 0, count: count)
            var any = false
            for i in 0..<count {
                rgb[i * 3] = rgba[i * 4]
                rgb[i * 3 + 1] = rgba[i * 4 + 1]
                rgb[i * 3 + 2] = rgba[i * 4 + 2]
                if rgba[i * 4 + 3] < 128 { keyed[i] = 1; any = true }
            }
            if any { mask = keyed }
        } else {
            rgb = Compositing.rgb(image, size: size, background: background)
        }
        var colors = maxColors
        if wholeBands {
            let extra = (height - size.height) * size.width
            if extra > 0 {
                rgb.reserveCapacity(rgb.count + extra * 3)
                for _ in 0..<extra { rgb += [background.r, background.g, background.b] }
            }
            colors = min(colors, 254)  // register 0 is added (`SixelRegisterZero`)
        }
        var bytes = Self.undrawnStaysTransparent(
            try Self.encode(rgb: rgb, mask: mask, width: size.width, height: height, colors: colors, diffusion: diffusion))
        if wholeBands {
            let zero = keepsTransparency ? SixelRegisterZero.bottomColour(rgb: rgb, width: size.width, height: size.height) : background
            bytes = SixelRegisterZero.shifted(bytes, zero: zero)
        }
        if tmuxPassthrough { bytes = TmuxPassthrough.wrap(bytes) }
        return RenderedImage(
            kind: .sixel, bytes: bytes,
            cells: CellSize(
                columns: (size.width + cellPixelSize.width - 1) / cellPixelSize.width,
                rows: (size.height + cellPixelSize.height - 1) / cellPixelSize.height),
            pixelSize: size)
    }

    /// Sets the DCS parameters of a sixel stream to `0;1` (P2=1: pixels not drawn keep their colour).
    static func undrawnStaysTransparent(_ stream: [UInt8]) -> [UInt8] {
        guard stream.count > 2, stream[0] == 0x1B, stream[1] == UInt8(ascii: "P"),
              let q = stream.prefix(16).firstIndex(of: UInt8(ascii: "q")) else { return stream }
        return EscapeSequence.dcsIntroducer("0;1") + stream[q...]
    }

    /// Encodes packed RGB888 pixels with libsixel (bytes collected by its write callback).
    static func encode(
        rgb: [UInt8], mask: [UInt8]? = nil, width: Int, height: Int, colors: Int, diffusion: SixelDiffusion
    ) throws(RenderError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        let status = rgb.withUnsafeBufferPointer { pixels in
            if let mask {
                return mask.withUnsafeBufferPointer {
                    sdg_sixel_encode_rgb(pixels.baseAddress, $0.baseAddress, Int32(width), Int32(height), Int32(colors), diffusion.rawValue, &out, &length)
                }
            }
            return sdg_sixel_encode_rgb(pixels.baseAddress, nil, Int32(width), Int32(height), Int32(colors), diffusion.rawValue, &out, &length)
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
