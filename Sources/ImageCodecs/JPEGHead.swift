import Foundation

/// What a JPEG's first marker segments say without decoding: the size its frame header gives (an EXIF
/// thumbnail's, for `NeededBytes` to tell whether it covers a cell).
enum JPEGHead {
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
}
