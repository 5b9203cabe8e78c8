/// Which early image a decoder made final before the whole file was in
/// (`IncrementalDecoding.sufficientImage()`): what the disk cache records of an early image, and
/// what tells it how much it is good for. An image decoded from the whole file has none.
public enum EarlyTier: Sendable, Hashable, CustomStringConvertible {
    /// A progressive JPEG at 1/`denominator` (8, 4 or 2), once the scans its scan script gives
    /// that scale were in; a JPEG XL at 1/8 once its DC was in (`JXLSession`).
    case scale(denominator: Int)
    /// The JPEG's EXIF (IFD1) thumbnail.
    case exifThumbnail
    /// An Adam7 PNG's or interlaced GIF's first pass (1/8 of the rows, and for PNG of the columns).
    case firstPass

    /// One byte for a file: 8, 4 or 2 for a scale, 1 for the EXIF thumbnail, 3 for a first pass.
    public var code: UInt8 {
        switch self {
        case .scale(let denominator): return UInt8(clamping: denominator)
        case .exifThumbnail: return 1
        case .firstPass: return 3
        }
    }

    /// The tier of `code`; nil for a code no tier has.
    public init?(code: UInt8) {
        switch code {
        case 2, 4, 8: self = .scale(denominator: Int(code))
        case 1: self = .exifThumbnail
        case 3: self = .firstPass
        default: return nil
        }
    }

    /// "1/8 scale", "EXIF thumbnail", "first pass".
    public var description: String {
        switch self {
        case .scale(let denominator): return "1/\(denominator) scale"
        case .exifThumbnail: return "EXIF thumbnail"
        case .firstPass: return "first pass"
        }
    }
}
