import Foundation

/// An image format, recognised from magic bytes only (never from a URL or a Content-Type).
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg = "JPEG", png = "PNG", gif = "GIF", webp = "WebP"
    case bmp = "BMP", tiff = "TIFF", heic = "HEIC", avif = "AVIF", svg = "SVG", jxl = "JPEG XL", ico = "ICO"
    case html = "HTML", text = "text", unknown = "unknown"

    /// Whether this build decodes the format (`ImageCoderRegistry` has its coder).
    public var isDecodable: Bool { ImageCoderRegistry.coder(for: self) != nil }

    /// The usual file extension ("jpg", "png", …), or nil for non-images.
    public var fileExtension: String? {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        case .webp: return "webp"
        case .bmp: return "bmp"
        case .tiff: return "tiff"
        case .heic: return "heic"
        case .avif: return "avif"
        case .svg: return "svg"
        case .jxl: return "jxl"
        case .ico: return "ico"
        case .html, .text, .unknown: return nil
        }
    }

    /// The error to report for bytes of this format when it cannot be decoded, or nil if it can.
    public var undecodableError: DecodeError? {
        if isDecodable { return nil }
        switch self {
        case .jpeg, .png, .gif, .webp, .bmp, .tiff, .heic, .avif, .svg, .jxl, .ico: return .unsupportedFormat(name: rawValue)
        case .html: return .notAnImage(kind: "text/html")
        case .text: return .notAnImage(kind: "text")
        case .unknown: return .notAnImage(kind: "unknown")
        }
    }

    /// Recognises the format from the first bytes (16 are enough for images; text detection looks at
    /// up to 512).
    public static func sniff(_ data: Data) -> ImageFormat {
        let head = [UInt8](data.prefix(512))
        return sniff(head)
    }

    /// Recognises the format from the first bytes.
    public static func sniff(_ b: [UInt8]) -> ImageFormat {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        // BMP: "BM", the 14-byte file header, then a DIB header of a known size (its low bytes).
        if starts(Array("BM".utf8)) && b.count >= 16 && [12, 16, 40, 52, 56, 64, 108, 124].contains(b[14]) && b[15] == 0 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // JPEG XL: a bare codestream, or the ISOBMFF container's signature box.
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        // ICO: reserved 0, type 1, at least one entry whose reserved byte is 0 and planes 0 or 1
        // (all within the 16 bytes an incremental decode sniffs).
        if starts([0, 0, 1, 0]) && b.count >= 16 && (b[4] != 0 || b[5] != 0) && b[9] == 0 && b[10] <= 1 && b[11] == 0 { return .ico }
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if brand.hasPrefix("avi") { return .avif }
            if ["heic", "heix", "hevc", "hevx", "mif1", "msf1", "heim", "heis"].contains(brand) { return .heic }
        }
        return sniffText(b)
    }

    private static func sniffText(_ b: [UInt8]) -> ImageFormat {
        guard !b.isEmpty else { return .unknown }
        var text = String(decoding: b, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let trimmed = text.drop(while: { $0.isWhitespace }).lowercased()
        if trimmed.hasPrefix("<svg") || (trimmed.hasPrefix("<?xml") && trimmed.contains("<svg")) || afterProlog(trimmed).hasPrefix("<svg") { return .svg }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.hasPrefix("<head")
            || trimmed.hasPrefix("<body") || trimmed.hasPrefix("<!--") && trimmed.contains("<html") {
            return .html
        }
        if trimmed.hasPrefix("<?xml") && trimmed.contains("<html") { return .html }
        // Mostly printable bytes: call it text.
        let printable = b.filter { $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 0x20 && $0 != 0x7F) }.count
        return printable * 100 >= b.count * 95 ? .text : .unknown
    }

    /// `text` after its leading comments, processing instructions and document type declaration
    /// (an SVG may start "<!-- Generator: … --><!DOCTYPE svg …>"); what is left when one is unclosed.
    private static func afterProlog(_ text: String) -> Substring {
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            let close: String
            if rest.hasPrefix("<!--") { close = "-->" } else if rest.hasPrefix("<?") { close = "?>" } else if rest.hasPrefix("<!doctype") {
                // An internal subset ("[ <!ENTITY …> ]") holds '>' of its own.
                close = rest.prefix(while: { $0 != ">" }).contains("[") ? "]>" : ">"
            } else { return rest }
            guard let end = rest.range(of: close) else { return rest }
            rest = rest[end.upperBound...]
        }
    }
}
