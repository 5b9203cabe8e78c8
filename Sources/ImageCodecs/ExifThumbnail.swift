import Foundation

/// The JPEG thumbnail a camera or phone embeds in EXIF (IFD1: `JPEGInterchangeFormat` 0x0201 and
/// its length 0x0202), found in the APP1 payload ("Exif\0\0", a TIFF header, IFD0, then IFD1).
/// Offsets are checked against the payload: a malformed one is no thumbnail, never a crash.
public struct ExifThumbnail {
    /// The thumbnail's JPEG bytes.
    let jpeg: [UInt8]

    /// Whether a thumbnail of `thumb` pixels (stored axes, as the image's) holds every pixel a target
    /// of `box` shows of the image: it has the image's aspect (within 2%) and the image fitted into
    /// `box` is no larger than it.
    static func covers(_ thumb: PixelSize, geometry: DecodeGeometry, box: PixelSize) -> Bool {
        let aspect = Double(geometry.stored.width) / Double(geometry.stored.height)
        let thumbAspect = Double(thumb.width) / Double(thumb.height)
        guard abs(thumbAspect / aspect - 1) <= 0.02 else { return false }
        let fitted = geometry.display.fitting(in: box)
        let thumbDisplay = geometry.orientation.oriented(thumb)
        return fitted.width <= thumbDisplay.width && fitted.height <= thumbDisplay.height
    }

    /// The thumbnail of an APP1 payload, or nil when there is none (or it is malformed).
    static func parse(exif payload: [UInt8]) -> ExifThumbnail? {
        guard let tiff = ExifTIFF(exif: payload) else { return nil }
        let t = ExifTIFF.start, u16 = tiff.u16, u32 = tiff.u32
        guard let ifd0 = tiff.firstIFD, let count0 = u16(t + ifd0), count0 <= 512,
              let ifd1 = u32(t + ifd0 + 2 + count0 * 12), ifd1 > 0, let count1 = u16(t + ifd1), count1 <= 512 else { return nil }
        var offset: Int?, length: Int?
        for entry in 0..<count1 {
            let e = t + ifd1 + 2 + entry * 12
            switch u16(e) {
            case 0x0201: offset = u32(e + 8)
            case 0x0202: length = u32(e + 8)
            default: break
            }
        }
        guard let offset, let length, length > 4, offset >= 0, t + offset + length <= payload.count else { return nil }
        let jpeg = Array(payload[(t + offset)..<(t + offset + length)])
        guard jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        return ExifThumbnail(jpeg: jpeg)
    }
}
