import CRSVG
import Foundation

/// SVG through librsvg (see `CRSVG`, loaded on the first SVG): rendered straight at the target size
/// through cairo, so sharp at any size. The source size is the document's intrinsic size (its
/// width and height in pixels at 96 dpi; a document with only a viewBox gets its proportions in a
/// `defaultBox`, one with neither the box itself), scaled down to fit `maxSourceSide`. A decode
/// with a target draws the document fitted into it, up as well as down (a vector is sharp at any
/// size: the full view of a 300×180 logo was drawn at 300×180 and stretched to the screen's
/// 960×576); without one, at the source size.
/// External references are refused (the document loads from memory with no base URL) and
/// librsvg's default limits stay on.
enum SVGDecoder {
    /// The box a document without an absolute size is rendered in at full view.
    static let defaultBox = PixelSize(width: 512, height: 512)
    /// Longest side of a full-view render: a document declaring 100000 px is drawn at 4096.
    static let maxSourceSide = 4096

    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        guard sdg_svg_load() == 0 else { throw DecodeError.unsupportedFormat(name: "SVG") }
        var message = [CChar](repeating: 0, count: 256)
        let opened = data.withUnsafeBytes { raw in
            sdg_svg_open(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &message, message.count)
        }
        guard let svg = opened else { throw DecodeError.corrupt(format: "SVG", reason: reason(message)) }
        defer { sdg_svg_close(svg) }
        let source = sourceSize(svg)
        let geometry = DecodeGeometry(stored: source, box: options.targetSize)
        try geometry.checkLimit(options.pixelLimit)
        let target = options.targetSize.map { Self.fitted(source, into: $0) } ?? source
        guard target.area <= options.pixelLimit else { throw DecodeError.tooLarge(width: target.width, height: target.height) }
        // The surface (drawn into the output itself) and librsvg's own surfaces for groups, masks
        // and filters: a few more of the render's size.
        let reservation = try options.memory.reserve(target.area * 4 * 4)
        defer { withExtendedLifetime(reservation) {} }
        var pixels = [UInt8](repeating: 0, count: target.area * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            sdg_svg_render(svg, Int32(target.width), Int32(target.height), out.baseAddress, &message, message.count)
        }
        guard status == 0 else { throw DecodeError.corrupt(format: "SVG", reason: reason(message)) }
        pixels.withUnsafeMutableBufferPointer { PremultipliedAlpha.unpremultiply($0) }
        return Image(width: target.width, height: target.height, pixels: pixels, sourceSize: geometry.display)
    }

    /// `source` scaled to fit `box`, up or down (aspect kept), its longest side at most `maxSourceSide`.
    static func fitted(_ source: PixelSize, into box: PixelSize) -> PixelSize {
        let w = Double(source.width), h = Double(source.height)
        let scale = min(Double(box.width) / w, Double(box.height) / h, Double(maxSourceSide) / max(w, h))
        return PixelSize(width: min(box.width, max(1, Int((w * scale).rounded()))), height: min(box.height, max(1, Int((h * scale).rounded()))))
    }

    /// The size a full view renders at (see the type's comment).
    static func sourceSize(_ svg: OpaquePointer) -> PixelSize {
        var w = 0.0, h = 0.0
        let kind = sdg_svg_intrinsic(svg, &w, &h)
        guard kind > 0, w.isFinite, h.isFinite, w > 0, h > 0 else { return defaultBox }
        let side = Double(maxSourceSide)
        // Absolute sizes as declared (at least 1 px), scaled down to the largest side; a viewBox
        // alone fitted into the default box (up or down).
        let scale = kind == 2 ? min(1, side / max(w, h)) : min(Double(defaultBox.width) / w, Double(defaultBox.height) / h)
        return PixelSize(width: max(1, Int((w * scale).rounded())), height: max(1, Int((h * scale).rounded())))
    }

    /// librsvg's message, printable ASCII only (it may quote the document), at most 120 characters.
    private static func reason(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : 0x3F }, as: UTF8.self)
        return text.isEmpty ? "invalid SVG" : String(text.prefix(120))
    }

    /// librsvg's version once it is loaded (the first SVG loads it), else what loading it says.
    /// Never loads it: `sdgallery --version`'s text is made at every start-up, and loading librsvg
    /// (cairo, pango, glib, fontconfig…: 45 libraries) cost each start-up ≈ 15 ms.
    static var libraryVersion: String {
        guard sdg_svg_is_loaded() != 0 else { return "2.x, loaded on the first SVG" }
        let version = String(cString: sdg_svg_version())
        return version.isEmpty ? String(cString: sdg_svg_load_error()) : version
    }
}
