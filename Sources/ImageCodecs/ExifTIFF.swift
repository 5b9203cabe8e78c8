/// The TIFF structure inside an EXIF APP1 payload ("Exif\0\0", a TIFF header, then IFDs): the one
/// reader of its byte order and integers, for the orientation (IFD0) and the thumbnail (IFD1).
/// Offsets are from the payload's start; every read is bounds-checked (nil past the end).
struct ExifTIFF {
    /// Where the TIFF header starts in the payload (after "Exif\0\0").
    static let start = 6
    let payload: [UInt8]
    let littleEndian: Bool

    /// Nil unless `payload` is an EXIF payload with a valid TIFF header (II or MM, then 42).
    init?(exif payload: [UInt8]) {
        let t = Self.start
        guard payload.count >= t + 8, payload[0..<6].elementsEqual(Array("Exif".utf8) + [0, 0]) else { return nil }
        switch (payload[t], payload[t + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.payload = payload
        guard u16(t + 2) == 42 else { return nil }
    }

    /// The 16-bit value at payload offset `i`.
    func u16(_ i: Int) -> Int? {
        guard i >= 0, i + 2 <= payload.count else { return nil }
        return littleEndian ? Int(payload[i]) | Int(payload[i + 1]) << 8 : Int(payload[i]) << 8 | Int(payload[i + 1])
    }

    /// The 32-bit value at payload offset `i`.
    func u32(_ i: Int) -> Int? {
        guard let a = u16(i), let b = u16(i + 2) else { return nil }
        return littleEndian ? a | b << 16 : a << 16 | b
    }

    /// IFD0's offset from the TIFF header.
    var firstIFD: Int? { u32(Self.start + 4) }
}
