import Foundation

/// What a JPEG's first bytes say about how far into the file its image can be final at a small
/// size: a progressive file's first scans hold its 1/8, 1/4 and 1/2 scales, an EXIF thumbnail
/// (in the first 64 KB) a small image; a baseline file without one needs every byte.
public enum JPEGHead {
    /// Whether `data` starts a progressive JPEG (its first SOF marker is SOF2, SOF6, SOF10 or SOF14).
    public static func isProgressive(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(65_536))
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) }
            if marker == 0xDA || marker == 0xD9 { return false }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return false
    }

    /// The stored size a JPEG's frame header gives (its first SOF marker), nil when the markers before
    /// it do not parse.
    static func frameSize(_ bytes: [UInt8]) -> PixelSize? {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard i + 9 <= bytes.count else { return nil }
                let height = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]), width = Int(bytes[i + 7]) << 8 | Int(bytes[i + 8])
                return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
            }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return nil
    }

    /// Whether a JPEG whose first bytes (up to 64 KB) are `head` can give an image final at a
    /// reduced size before its end: progressive, or with an EXIF thumbnail.
    public static func mayStopEarly(_ head: Data) -> Bool {
        isProgressive(head) || ExifThumbnail.isPresent(inJPEG: head)
    }
}
