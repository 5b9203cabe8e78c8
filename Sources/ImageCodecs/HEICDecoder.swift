import CHEIF
import Foundation

/// HEIC through libheif (see `CHEIF`; HEVC by libde265): the primary image, with the file's
/// `clap`, `irot` and `imir` applied by libheif, decoded to RGBA8 at full size and scaled with
/// `ImageScaler` (libheif has no scaled decode). A HEIF whose brands say AV1 (`avif`, `avis`)
/// goes to `AVIFDecoder`. ICC profiles are ignored, as by the other coders.
enum HEICDecoder {
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        let isAV1 = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return sdg_heif_has_brand(base, raw.count, "avif") != 0 || sdg_heif_has_brand(base, raw.count, "avis") != 0
        }
        if isAV1 { return try AVIFDecoder.decode(data, options: options) }
        guard sdg_heif_has_hevc_decoder() != 0 else { throw DecodeError.unsupportedFormat(name: "HEIC (no HEVC decoder)") }
        return try data.withUnsafeBytes { raw -> Image in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { throw DecodeError.empty }
            // An overlay's canvas size comes from its own descriptor, which libheif 1.15 allocates
            // without its size limit: a 3 KB file made it allocate 639 MB (fuzz). Overlays are rare.
            if ISOBMFFBoxes.itemTypes(raw).contains("iovl") { throw DecodeError.unsupportedFormat(name: "HEIF overlay") }
            // Items that use each other in a loop made libheif 1.15 recurse until the stack ran out.
            if ISOBMFFBoxes.referencesLoop(raw) { throw DecodeError.corrupt(format: "HEIC", reason: "its images refer to each other in a loop") }
            var context: OpaquePointer?, handle: OpaquePointer?
            var message = [CChar](repeating: 0, count: 256)
            // libheif's own cap is per side: a side over the pixel cap is over it whatever the other.
            let opened = message.withUnsafeMutableBufferPointer {
                sdg_heif_open(base, raw.count, Int32(clamping: max(1, options.pixelLimit)), &context, &handle, $0.baseAddress, $0.count)
            }
            guard opened.code == heif_error_Ok, let handle else {
                if opened.subcode == heif_suberror_Security_limit_exceeded, let size = announcedSize(base, count: raw.count),
                   size.area > options.pixelLimit {
                    throw DecodeError.tooLarge(width: size.width, height: size.height)
                }
                throw failure(opened, message, data: raw)
            }
            defer { sdg_heif_close(context, handle) }
            // The size shown (after clap and irot) and the coded size (`ispe`, what is decoded before
            // the crop): both within the cap before a pixel is decoded.
            let display = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            let coded = PixelSize(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
            guard display.width > 0, display.height > 0 else { throw DecodeError.corrupt(format: "HEIC", reason: "no image size") }
            let geometry = DecodeGeometry(stored: display, box: options.targetSize)
            try geometry.checkLimit(options.pixelLimit)
            if coded.area > options.pixelLimit { throw DecodeError.tooLarge(width: coded.width, height: coded.height) }
            // And every grid's canvas, which libheif allocates from the grid's descriptor when it
            // decodes (opening the file reads none): read from the boxes before a pixel is decoded.
            let items = HEIFDecodedItems(raw)
            try check(items, pixelLimit: options.pixelLimit, data: raw)
            // Working bytes: the decoded planes (4:4:4 at the file's depth, alpha too), the RGBA
            // conversion and its contiguous copy, and the image at the target.
            let area = items.grids.reduce(max(display.area, coded.area)) { max($0, $1.descriptor?.canvas.area ?? 0) }
            let sample = heif_image_handle_get_luma_bits_per_pixel(handle) > 8 ? 2 : 1
            let planes = area * sample * (heif_image_handle_has_alpha_channel(handle) != 0 ? 4 : 3)
            let reservation = try options.memory.reserve(planes + area * 8 + geometry.target.area * 4)
            defer { withExtendedLifetime(reservation) {} }
            var image: OpaquePointer?
            var width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
            var pixels: UnsafePointer<UInt8>?
            let decoded = message.withUnsafeMutableBufferPointer {
                sdg_heif_decode_rgba(handle, &image, &width, &height, &stride, &pixels, $0.baseAddress, $0.count)
            }
            guard decoded.code == heif_error_Ok, let image, let pixels else { throw failure(decoded, message, data: raw) }
            defer { heif_image_release(image) }
            guard Int(width) == display.width, Int(height) == display.height else {
                throw DecodeError.corrupt(format: "HEIC", reason: "decoded \(width)×\(height), announced \(display.width)×\(display.height)")
            }
            let row = display.width * 4
            if Int(stride) == row { return geometry.finish(pixels, size: display) }
            var packed = [UInt8](repeating: 0, count: display.area * 4)
            packed.withUnsafeMutableBufferPointer { out in
                for y in 0..<display.height {
                    (out.baseAddress! + y * row).update(from: pixels + y * Int(stride), count: row)
                }
            }
            return packed.withUnsafeBufferPointer { geometry.finish($0.baseAddress!, size: display) }
        }
    }

    /// What libheif 1.15 would decode, checked before it does. A grid's canvas is allocated from the
    /// grid's descriptor, whatever the item's `ispe` says and within only a per-side limit (454 MB
    /// asked by a 3 KB file: fuzz). Each tile is a decode of its own (a decoder, its planes, a
    /// paste), and a file can name one tile thousands of times: at most `maxDecodedImages` images
    /// per picture. An AV1 image of no bytes makes libheif's dav1d plugin leak and dav1d print (fuzz).
    static func check(_ found: HEIFDecodedItems, pixelLimit: Int, data: UnsafeRawBufferPointer) throws {
        if !found.imagesWithoutData.isEmpty { throw DecodeError.corrupt(format: "HEIC", reason: "an image without data") }
        for grid in found.grids {
            guard let descriptor = grid.descriptor else {
                if ISOBMFFBoxes.endsInsideABox(data) { throw DecodeError.truncated(format: "HEIC") }
                throw DecodeError.corrupt(format: "HEIC", reason: "a grid without its descriptor")
            }
            let canvas = descriptor.canvas
            if canvas.area > pixelLimit { throw DecodeError.tooLarge(width: canvas.width, height: canvas.height) }
            guard canvas.width > 0, canvas.height > 0 else {
                throw DecodeError.corrupt(format: "HEIC", reason: "a grid of \(canvas.width)×\(canvas.height) pixels")
            }
            if descriptor.tiles > maxDecodedImages(pixelLimit: pixelLimit) {
                throw DecodeError.corrupt(format: "HEIC", reason: "a grid of \(descriptor.rows)×\(descriptor.columns) tiles (at most \(maxDecodedImages(pixelLimit: pixelLimit)))")
            }
        }
        if found.decodedImages > maxDecodedImages(pixelLimit: pixelLimit) {
            throw DecodeError.corrupt(format: "HEIC", reason: "over \(maxDecodedImages(pixelLimit: pixelLimit)) images to decode")
        }
    }

    /// One image per 64×64 pixels of the cap (MIAF's smallest tile), and never fewer than 256: a
    /// camera's 512×512 tiles of a 48-megapixel photo are 192, 64×64 tiles of a 100-megapixel one
    /// 24,414 (the default cap's bound).
    static func maxDecodedImages(pixelLimit: Int) -> Int { max(256, pixelLimit / 4096) }

    /// The primary image's coded size when libheif refused it as over the cap: read again with
    /// libheif's widest per-side cap, never decoded.
    private static func announcedSize(_ base: UnsafePointer<UInt8>, count: Int) -> PixelSize? {
        var context: OpaquePointer?, handle: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let opened = message.withUnsafeMutableBufferPointer { sdg_heif_open(base, count, Int32.max, &context, &handle, $0.baseAddress, $0.count) }
        guard opened.code == heif_error_Ok, let handle else { return nil }
        defer { sdg_heif_close(context, handle) }
        return PixelSize(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
    }

    /// libheif's error (its text copied into `message`) as a `DecodeError`: `.truncated` when
    /// libheif says the data ended or the data ends inside a box.
    private static func failure(_ error: heif_error, _ message: [CChar], data: UnsafeRawBufferPointer) -> DecodeError {
        if error.code == heif_error_Invalid_input && error.subcode == heif_suberror_End_of_data || ISOBMFFBoxes.endsInsideABox(data) {
            return .truncated(format: "HEIC")
        }
        if error.code == heif_error_Memory_allocation_error && error.subcode == heif_suberror_Security_limit_exceeded {
            return .corrupt(format: "HEIC", reason: "over libheif's limits")
        }
        let fallback = "error \(error.code.rawValue).\(error.subcode.rawValue)"
        return .corrupt(format: "HEIC", reason: message.withUnsafeBufferPointer { LibraryText.sanitized($0.baseAddress, fallback: fallback) })
    }
}
