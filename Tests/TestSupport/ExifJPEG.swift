import Foundation

/// A JPEG with an EXIF (APP1) segment right after SOI: IFD0 with an orientation, IFD1 with a JPEG
/// thumbnail, as cameras and phones write them.
public enum ExifJPEG {
    /// `main` with the APP1 segment: IFD0 with `orientation`, IFD1 with `thumbnail`.
    public static func with(_ main: Data, thumbnail: Data, orientation: UInt16) -> Data {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        var tiff: [UInt8] = [0x49, 0x49, 42, 0] + le32(8)
        tiff += le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(Int(orientation)) + [0, 0] + le32(26)  // IFD0 → IFD1 at 26
        tiff += le16(2) + le16(0x0201) + le16(4) + le32(1) + le32(56) + le16(0x0202) + le16(4) + le32(1) + le32(thumbnail.count) + le32(0)
        tiff += [UInt8](thumbnail)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Data([0xFF, 0xD8] + segment) + main.dropFirst(2)
    }
}
