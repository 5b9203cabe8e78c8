import Foundation

/// ICO (Windows icons): a directory of images, of which the largest is decoded (by pixels, then
/// bit depth, as the directory states them) and scaled to the target. Always the largest, target
/// or not: the image's source size is then the same for a full and a boxed decode of one file,
/// and a boxed decode cannot succeed where the full one fails. An entry is a PNG (decoded by
/// libpng through `PNGSession`) or a DIB (`BMPDecoder`: a BMP without its file header, its height
/// doubled, a 1-bit AND mask after the pixels giving transparency).
///
/// Every entry's offset and size are checked against the file; a width or height of 0 means 256.
enum ICODecoder {
    struct Entry {
        let width: Int, height: Int, bitCount: Int, offset: Int, size: Int
    }

    /// The directory's valid entries (after the directory, inside the file, at least 12 bytes).
    static func entries(_ bytes: BMPDecoder.Bytes) throws -> [Entry] {
        guard try bytes.u16(0) == 0, try bytes.u16(2) == 1 else { throw DecodeError.corrupt(format: "ICO", reason: "not an icon directory") }
        let count = Int(try bytes.u16(4))
        guard count > 0 else { throw DecodeError.corrupt(format: "ICO", reason: "no images") }
        var entries: [Entry] = []
        for i in 0..<count {
            let e = 6 + i * 16
            guard bytes.has(e, 16) else { break }
            let w = Int(try bytes.u8(e)), h = Int(try bytes.u8(e + 1))
            let entry = Entry(width: w == 0 ? 256 : w, height: h == 0 ? 256 : h, bitCount: Int(try bytes.u16(e + 6)),
                              offset: Int(try bytes.u32(e + 12)), size: Int(try bytes.u32(e + 8)))
            if entry.size >= 12, entry.offset >= 6 + count * 16, bytes.has(entry.offset, entry.size) { entries.append(entry) }
        }
        guard !entries.isEmpty else { throw DecodeError.truncated(format: "ICO") }
        return entries
    }

    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        return try data.withUnsafeBytes { raw -> Image in
            let bytes = BMPDecoder.Bytes(raw, format: "ICO")
            let all = try entries(bytes)
            // The largest: pixels, then bit depth; the first of equals.
            var best = all[0]
            for entry in all.dropFirst() where (entry.width * entry.height, entry.bitCount) > (best.width * best.height, best.bitCount) {
                best = entry
            }
            let slice = UnsafeRawBufferPointer(rebasing: raw[best.offset..<best.offset + best.size])
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            if slice.count >= 8 && slice.prefix(8).elementsEqual(png) {
                do {
                    return try PNGSession.decode(Data(slice), options: options)
                } catch DecodeError.truncated {
                    throw DecodeError.truncated(format: "ICO")
                } catch DecodeError.corrupt(_, let reason) {
                    throw DecodeError.corrupt(format: "ICO", reason: "PNG image: " + reason)
                }
            }
            let bitmap = try BMPDecoder.decodeDIB(BMPDecoder.Bytes(slice, format: "ICO"), at: 0, pixelOffset: nil, icon: true, options: options)
            return BMPDecoder.finish(bitmap, options: options)
        }
    }
}
