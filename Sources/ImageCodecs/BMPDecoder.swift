import Foundation

/// BMP, and the DIB images inside ICO files (`ICODecoder`): a small strict decoder of our own.
///
/// Debian has no small memory-safe library for BMP alone (gdk-pixbuf is plugin-based and heavy,
/// ImageMagick far too big), so this one reads only what browsers meet: the CORE (12-byte), INFO
/// (40), 52/56-byte, V4 (108) and V5 (124) headers; 1/4/8-bit palettes; 16/24/32-bit with BI_RGB
/// or BI_BITFIELDS/BI_ALPHABITFIELDS masks; RLE8 and RLE4; bottom-up and top-down rows. Anything
/// else is a typed error. Every read is bounds-checked, every size computed with overflow checks,
/// the pixel count checked against `pixelLimit` before the canvas is allocated, and RLE never
/// writes outside the canvas and stops at the end of its data.
enum BMPDecoder {
    /// Decodes a BMP file ("BM", the 14-byte file header, a DIB header, palette, pixels).
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        return try data.withUnsafeBytes { raw in
            let bytes = Bytes(raw, format: "BMP")
            guard try bytes.u8(0) == 0x42, try bytes.u8(1) == 0x4D else { throw DecodeError.corrupt(format: "BMP", reason: "no BM signature") }
            let pixelOffset = Int(try bytes.u32(10))
            let bitmap = try decodeDIB(bytes, at: 14, pixelOffset: pixelOffset, icon: false, options: options)
            return finish(bitmap, options: options)
        }
    }

    /// Scales a decoded bitmap to the target (BMP and ICO have no orientation).
    static func finish(_ bitmap: Bitmap, options: DecodeOptions) -> Image {
        DecodeGeometry(stored: bitmap.size, box: options.targetSize).finish(bitmap)
    }

    /// Bounds-checked little-endian reads; a read past the end is `.truncated`.
    struct Bytes {
        let raw: UnsafeRawBufferPointer
        let format: String
        init(_ raw: UnsafeRawBufferPointer, format: String) {
            self.raw = raw
            self.format = format
        }
        var count: Int { raw.count }
        func has(_ offset: Int, _ length: Int) -> Bool {
            offset >= 0 && length >= 0 && offset <= raw.count && length <= raw.count - offset
        }
        func u8(_ o: Int) throws -> UInt8 {
            guard has(o, 1) else { throw DecodeError.truncated(format: format) }
            return raw[o]
        }
        func u16(_ o: Int) throws -> UInt16 {
            guard has(o, 2) else { throw DecodeError.truncated(format: format) }
            return UInt16(raw[o]) | UInt16(raw[o + 1]) << 8
        }
        func u32(_ o: Int) throws -> UInt32 {
            guard has(o, 4) else { throw DecodeError.truncated(format: format) }
            return UInt32(raw[o]) | UInt32(raw[o + 1]) << 8 | UInt32(raw[o + 2]) << 16 | UInt32(raw[o + 3]) << 24
        }
        func i32(_ o: Int) throws -> Int32 { Int32(bitPattern: try u32(o)) }
    }

    /// One colour channel of a bit-field pixel: its mask, where it starts, how many bits.
    struct Channel {
        let mask: UInt32, shift: UInt32, bits: UInt32

        /// Nil when the mask's bits are not contiguous.
        init?(mask: UInt32) {
            self.mask = mask
            guard mask != 0 else { shift = 0; bits = 0; return }
            shift = UInt32(mask.trailingZeroBitCount)
            let field = mask >> shift
            guard field & (field &+ 1) == 0 else { return nil }
            bits = UInt32(field.bitWidth - field.leadingZeroBitCount)
        }

        /// The channel of `pixel` scaled to 8 bits (0 for an empty mask).
        func value(_ pixel: UInt32) -> UInt8 {
            guard bits > 0 else { return 0 }
            let v = (pixel & mask) >> shift
            if bits >= 8 { return UInt8(truncatingIfNeeded: v >> (bits - 8)) }
            let top = (UInt32(1) << bits) - 1
            return UInt8((v * 255 + top / 2) / top)
        }
    }

    enum Compression: UInt32 {
        case rgb = 0, rle8 = 1, rle4 = 2, bitfields = 3, jpeg = 4, png = 5, alphaBitfields = 6
    }

    /// A DIB: the header at `offset`, then masks (INFO headers with bit fields), the palette and the
    /// pixels (at `pixelOffset` in a BMP file; right after the palette in an icon). In an icon the
    /// header's height counts the AND mask too: the image is half of it, the 1-bit mask follows the
    /// pixels, and 32-bit pixels carry alpha.
    static func decodeDIB(_ bytes: Bytes, at offset: Int, pixelOffset: Int?, icon: Bool, options: DecodeOptions) throws -> Bitmap {
        let format = bytes.format
        func corrupt(_ reason: String) -> DecodeError { .corrupt(format: format, reason: reason) }
        let headerSize = Int(try bytes.u32(offset))
        let width: Int, signedHeight: Int, planes: UInt16, bpp: Int, compressionCode: UInt32, colorsUsed: Int
        var masks: (r: UInt32, g: UInt32, b: UInt32, a: UInt32) = (0, 0, 0, 0)
        var headerMasks = false, alphaMaskInHeader = false
        switch headerSize {
        case 12:
            width = Int(try bytes.u16(offset + 4))
            signedHeight = Int(try bytes.u16(offset + 6))
            planes = try bytes.u16(offset + 8)
            bpp = Int(try bytes.u16(offset + 10))
            compressionCode = 0
            colorsUsed = 0
        case 40, 52, 56, 108, 124:
            width = Int(try bytes.i32(offset + 4))
            signedHeight = Int(try bytes.i32(offset + 8))
            planes = try bytes.u16(offset + 12)
            bpp = Int(try bytes.u16(offset + 14))
            compressionCode = try bytes.u32(offset + 16)
            colorsUsed = Int(try bytes.u32(offset + 32))
            if headerSize >= 52 {
                masks.r = try bytes.u32(offset + 40)
                masks.g = try bytes.u32(offset + 44)
                masks.b = try bytes.u32(offset + 48)
                headerMasks = true
            }
            if headerSize >= 56 {
                masks.a = try bytes.u32(offset + 52)
                alphaMaskInHeader = true
            }
        default:
            throw DecodeError.unsupportedFormat(name: "\(format) with a \(headerSize)-byte header")
        }
        guard let compression = Compression(rawValue: compressionCode) else { throw corrupt("compression \(compressionCode)") }
        if compression == .jpeg || compression == .png {
            throw DecodeError.unsupportedFormat(name: "\(format) with \(compression == .jpeg ? "JPEG" : "PNG") inside")
        }
        guard planes == 1 else { throw corrupt("\(planes) planes") }
        guard width > 0, signedHeight != 0, signedHeight != Int(Int32.min) else { throw corrupt("size \(width)×\(signedHeight)") }
        let topDown = signedHeight < 0
        var height = abs(signedHeight)
        if icon {
            guard !topDown, height >= 2 else { throw corrupt("icon height \(signedHeight)") }
            height /= 2
        }
        let stored = PixelSize(width: width, height: height)
        if stored.area > options.pixelLimit { throw DecodeError.tooLarge(width: width, height: height) }

        switch (compression, bpp) {
        case (.rgb, 1), (.rgb, 4), (.rgb, 8), (.rgb, 24): break
        case (.rgb, 16), (.rgb, 32): guard headerSize != 12 else { throw corrupt("\(bpp) bits per pixel in a CORE header") }
        case (.rle8, 8), (.rle4, 4): guard !topDown, !icon else { throw corrupt("top-down or icon RLE") }
        case (.bitfields, 16), (.bitfields, 32), (.alphaBitfields, 16), (.alphaBitfields, 32): break
        default: throw DecodeError.unsupportedFormat(name: "\(format) with \(bpp) bits per pixel, compression \(compressionCode)")
        }

        // Masks after an INFO header; the fixed layouts of BI_RGB.
        var position = offset + headerSize
        if compression == .bitfields || compression == .alphaBitfields {
            if !headerMasks {
                masks.r = try bytes.u32(position)
                masks.g = try bytes.u32(position + 4)
                masks.b = try bytes.u32(position + 8)
                position += 12
                if compression == .alphaBitfields {
                    masks.a = try bytes.u32(position)
                    position += 4
                }
            } else if compression == .bitfields && !alphaMaskInHeader {
                masks.a = 0
            }
        } else if bpp == 16 {
            masks = (0x7C00, 0x03E0, 0x001F, 0)
        } else if bpp == 32 {
            // BI_RGB: the fourth byte is reserved, except in icons (alpha) and when a V3+ header
            // names it as alpha.
            let alpha: UInt32 = icon || (alphaMaskInHeader && masks.a == 0xFF00_0000) ? 0xFF00_0000 : 0
            masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, alpha)
        }
        if bpp == 16 && (masks.r | masks.g | masks.b | masks.a) > 0xFFFF { throw corrupt("a 16-bit mask wider than 16 bits") }
        guard let red = Channel(mask: masks.r), let green = Channel(mask: masks.g), let blue = Channel(mask: masks.b),
              let alphaChannel = Channel(mask: masks.a) else { throw corrupt("a mask with holes") }

        let headerEnd = position
        // The palette: 3 bytes per entry after a CORE header, else 4 (B, G, R, reserved).
        var palette = [UInt8](repeating: 0, count: 256 * 4)
        for i in 0..<256 { palette[i * 4 + 3] = 255 }
        let entrySize = headerSize == 12 ? 3 : 4
        if bpp <= 8 {
            let maximum = 1 << bpp
            guard colorsUsed <= 1 << 16 else { throw corrupt("\(colorsUsed) palette colours") }
            var entries = colorsUsed == 0 ? maximum : min(colorsUsed, maximum)
            if let pixelOffset {
                guard pixelOffset >= position else { throw corrupt("pixels at \(pixelOffset), inside the header") }
                entries = min(entries, (pixelOffset - position) / entrySize)
                guard entries > 0 else { throw corrupt("no palette") }
            }
            for i in 0..<entries {
                let e = position + i * entrySize
                palette[i * 4] = try bytes.u8(e + 2)
                palette[i * 4 + 1] = try bytes.u8(e + 1)
                palette[i * 4 + 2] = try bytes.u8(e)
            }
            // The palette actually stored (an icon's pixels follow it straight).
            position += (colorsUsed == 0 ? maximum : min(colorsUsed, maximum)) * entrySize
        }
        let start = pixelOffset ?? position
        guard start >= headerEnd, start <= bytes.count else { throw corrupt("pixels at \(start), outside the file") }

        // The canvas: only now, after the cap and (for unpacked rows) the data check.
        let (bits, overflow1) = width.multipliedReportingOverflow(by: bpp)
        guard !overflow1 else { throw DecodeError.tooLarge(width: width, height: height) }
        let rowStride = (bits + 31) / 32 * 4
        let (dataSize, overflow2) = rowStride.multipliedReportingOverflow(by: height)
        guard !overflow2 else { throw DecodeError.tooLarge(width: width, height: height) }
        let rle = compression == .rle8 || compression == .rle4
        if !rle && !bytes.has(start, dataSize) { throw DecodeError.truncated(format: format) }
        let reservation = try options.memory.reserve(stored.area * 4 + DecodeGeometry(stored: stored, box: options.targetSize).target.area * 4)
        defer { withExtendedLifetime(reservation) {} }
        var pixels = [UInt8](repeating: 0, count: stored.area * 4)

        if rle {
            decodeRLE(bytes, from: start, four: compression == .rle4, width: width, height: height, palette: palette, into: &pixels)
            return Bitmap(width: width, height: height, pixels: pixels)
        }
        let raw = bytes.raw
        pixels.withUnsafeMutableBufferPointer { out in
            for fileRow in 0..<height {
                let row = start + fileRow * rowStride
                let y = topDown ? fileRow : height - 1 - fileRow
                var o = y * width * 4
                switch bpp {
                case 1, 4, 8:
                    for x in 0..<width {
                        let index: Int
                        switch bpp {
                        case 1: index = Int(raw[row + x >> 3] >> (7 - UInt8(x & 7))) & 1
                        case 4: index = Int(raw[row + x >> 1] >> (x & 1 == 0 ? 4 : 0)) & 0xF
                        default: index = Int(raw[row + x])
                        }
                        out[o] = palette[index * 4]
                        out[o + 1] = palette[index * 4 + 1]
                        out[o + 2] = palette[index * 4 + 2]
                        out[o + 3] = 255
                        o += 4
                    }
                case 24:
                    for x in 0..<width {
                        let p = row + x * 3
                        out[o] = raw[p + 2]
                        out[o + 1] = raw[p + 1]
                        out[o + 2] = raw[p]
                        out[o + 3] = 255
                        o += 4
                    }
                default:
                    for x in 0..<width {
                        let pixel: UInt32
                        if bpp == 16 {
                            let p = row + x * 2
                            pixel = UInt32(raw[p]) | UInt32(raw[p + 1]) << 8
                        } else {
                            let p = row + x * 4
                            pixel = UInt32(raw[p]) | UInt32(raw[p + 1]) << 8 | UInt32(raw[p + 2]) << 16 | UInt32(raw[p + 3]) << 24
                        }
                        out[o] = red.value(pixel)
                        out[o + 1] = green.value(pixel)
                        out[o + 2] = blue.value(pixel)
                        out[o + 3] = alphaChannel.bits > 0 ? alphaChannel.value(pixel) : 255
                        o += 4
                    }
                }
            }
        }
        var hasAlpha = alphaChannel.bits > 0
        if hasAlpha && !stride(from: 3, to: pixels.count, by: 4).contains(where: { pixels[$0] != 0 }) {
            // Every alpha 0: the field is unused (as browsers read it), the image opaque.
            for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
            hasAlpha = false
        }
        if icon && !hasAlpha { applyANDMask(bytes, at: start + dataSize, width: width, height: height, into: &pixels) }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// An icon's 1-bit AND mask (bottom-up rows padded to 4 bytes; 1 = transparent). An icon
    /// without one (its data ends first) stays opaque.
    static func applyANDMask(_ bytes: Bytes, at start: Int, width: Int, height: Int, into pixels: inout [UInt8]) {
        let stride = (width + 31) / 32 * 4
        guard bytes.has(start, stride * height) else { return }
        for fileRow in 0..<height {
            let row = start + fileRow * stride
            let y = height - 1 - fileRow
            for x in 0..<width where bytes.raw[row + x >> 3] >> (7 - UInt8(x & 7)) & 1 == 1 {
                let o = (y * width + x) * 4
                pixels[o] = 0
                pixels[o + 1] = 0
                pixels[o + 2] = 0
                pixels[o + 3] = 0
            }
        }
    }

    /// RLE8 or RLE4 from `start` onto the (transparent) canvas, bottom-up. Pixels a run or a delta
    /// would put outside the canvas are dropped; the decode stops at end-of-bitmap, past the last
    /// row, or where the data ends. Pixels never written stay transparent (as browsers show them).
    static func decodeRLE(_ bytes: Bytes, from start: Int, four: Bool, width: Int, height: Int, palette: [UInt8], into pixels: inout [UInt8]) {
        let raw = bytes.raw, end = bytes.count
        var x = 0, y = 0, i = start
        pixels.withUnsafeMutableBufferPointer { out in
            func put(_ index: Int) {
                if x < width {
                    let o = ((height - 1 - y) * width + x) * 4
                    out[o] = palette[index * 4]
                    out[o + 1] = palette[index * 4 + 1]
                    out[o + 2] = palette[index * 4 + 2]
                    out[o + 3] = 255
                }
                x += 1
            }
            while y < height, i + 1 < end {
                let count = Int(raw[i]), value = raw[i + 1]
                i += 2
                if count > 0 {
                    if x >= width { x += count; continue }
                    for k in 0..<count { put(four ? Int(k & 1 == 0 ? value >> 4 : value & 0xF) : Int(value)) }
                    continue
                }
                switch value {
                case 0:
                    x = 0
                    y += 1
                case 1:
                    return
                case 2:
                    guard i + 1 < end else { return }
                    x += Int(raw[i])
                    y += Int(raw[i + 1])
                    i += 2
                default:
                    let n = Int(value)
                    let length = four ? (n + 1) / 2 : n
                    let padded = (length + 1) & ~1
                    guard i + length <= end else { return }
                    for k in 0..<n {
                        put(four ? Int(k & 1 == 0 ? raw[i + k / 2] >> 4 : raw[i + k / 2] & 0xF) : Int(raw[i + k]))
                    }
                    i += padded
                }
            }
        }
    }
}
