import Foundation
import ImageCodecs

/// iTerm2 inline images (OSC 1337 `File=`), the protocol of iTerm2, WezTerm, VS Code's terminal,
/// mintty, Konsole and mlterm: the image, scaled to the cell rectangle's pixel size (aspect kept), as
/// a PNG (RGB when opaque, else RGBA: the terminal blends against its real background), base64 in
/// one `OSC 1337 ; File=inline=1;size=…;width=…;height=… : … ST` sized in cells so the terminal
/// neither rescales it against a guessed cell size nor moves the cursor past the image's cells.
/// Sent whole: the multipart form (`MultipartFile`/`FilePart`) is iTerm2 3.5's only, and the others
/// take the single sequence. Like sixel, text written over it erases it.
public struct ITermRenderer: ImageRenderer {
    /// Background for the identity (the terminal composites alpha itself).
    public var background: RGBColor

    /// Creates an iTerm2 renderer.
    public init(background: RGBColor = .black) { self.background = background }

    /// Kind `.iterm2`.
    public var identity: RendererIdentity { RendererIdentity(kind: .iterm2, background: background) }

    /// Renders `image` into at most `cells`.
    public func render(_ image: Image, cells: CellSize, cellPixelSize: PixelSize) throws(RenderError) -> RenderedImage {
        try validate(image, cells: cells)
        let size = image.size.scaledToFit(cellPixelSize.pixels(for: cells))
        guard let png = PNGEncoder.encode(rgba: image.pixels(scaledTo: size), size: size) else {
            throw .invalidImage(width: image.width, height: image.height, bytes: image.pixels.count)
        }
        let covered = CellSize(
            columns: min(cells.columns, (size.width + cellPixelSize.width - 1) / cellPixelSize.width),
            rows: min(cells.rows, (size.height + cellPixelSize.height - 1) / cellPixelSize.height))
        let bytes = Self.sequence(png: png, cells: covered)
        return RenderedImage(kind: .iterm2, bytes: bytes, cells: covered, pixelSize: size)
    }

    /// `OSC 1337 ; File=… : base64 ST` showing `png` over `cells`.
    static func sequence(png: [UInt8], cells: CellSize) -> [UInt8] {
        EscapeSequence.osc("1337;File=inline=1;size=\(png.count);width=\(cells.columns);height=\(cells.rows);preserveAspectRatio=1:"
                           + Data(png).base64EncodedString())
    }
}
