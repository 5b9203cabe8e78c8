import CTIFF
import Foundation

/// TIFF through libtiff (see `CTIFF`): the first page, any photometric interpretation and bit depth
/// libtiff's RGBA interface reads, read whole at its stored size, then oriented (the Orientation tag,
/// all eight values) and scaled to the target.
///
/// Before any pixel is read: the size against `pixelLimit`, the one strip or tile buffer libtiff
/// will allocate against a cap, and every single allocation of libtiff's own against the same cap
/// (`TIFFOpenOptionsSetMaxSingleMemAlloc`), so a hostile header cannot make it allocate gigabytes.
enum TIFFDecoder {
    /// The cap on one libtiff allocation for a decode under `pixelLimit`: a whole page of 16-bit RGBA
    /// in one strip, at least 4 MB (tiles are padded past the image; directories hold arrays).
    static func allocationCap(pixelLimit: Int) -> Int {
        let (page, overflow) = max(pixelLimit, 0).multipliedReportingOverflow(by: 8)
        return max(4 << 20, overflow ? Int.max : page)
    }

    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.empty }
        return try data.withUnsafeBytes { raw -> Image in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw DecodeError.empty }
            guard let handle = sdg_tiff_open(base, raw.count, allocationCap(pixelLimit: options.pixelLimit)) else {
                throw DecodeError.corrupt(format: "TIFF", reason: "out of memory")
            }
            defer { sdg_tiff_close(handle) }
            guard sdg_tiff_ok(handle) != 0 else { throw failure(handle, count: raw.count) }
            var w: UInt32 = 0, h: UInt32 = 0, orientation: Int32 = 1, work = 0
            guard sdg_tiff_size(handle, &w, &h, &orientation) == 0 else { throw failure(handle, count: raw.count) }
            let stored = PixelSize(width: Int(w), height: Int(h))
            let geometry = DecodeGeometry(stored: stored, orientation: ExifOrientation(rawValue: Int(orientation)) ?? .up, box: options.targetSize)
            try geometry.checkLimit(options.pixelLimit)
            guard sdg_tiff_check(handle, &work) == 0 else { throw failure(handle, count: raw.count) }
            // The page as RGBA, libtiff's strip or tile buffer, the scaled output.
            let reservation = try options.memory.reserve(stored.area * 4 + work + geometry.target.area * 4)
            defer { withExtendedLifetime(reservation) {} }
            // Raw, 4-byte aligned: libtiff fills it as packed uint32, the shim rewrites each as RGBA bytes.
            let raster = UnsafeMutableRawBufferPointer.allocate(byteCount: stored.area * 4, alignment: 4)
            defer { raster.deallocate() }
            let pixels = raster.initializeMemory(as: UInt8.self, repeating: 0)
            guard let start = pixels.baseAddress, sdg_tiff_read_rgba(handle, start, pixels.count) == 0 else { throw failure(handle, count: raw.count) }
            PremultipliedAlpha.unpremultiply(pixels)
            let image = geometry.finish(UnsafePointer(start), size: stored)
            return image
        }
    }

    /// libtiff's last error as a `DecodeError`: `.truncated` when it read past the end, else
    /// `.corrupt` with its message (printable ASCII only: the message may quote the file).
    private static func failure(_ handle: OpaquePointer, count: Int) -> DecodeError {
        let message = String(cString: sdg_tiff_error(handle))
        let safe = String(String.UnicodeScalarView(message.unicodeScalars.prefix(200).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
        let lower = safe.lowercased()
        if lower.contains("read error") || lower.contains("unexpected end") || lower.contains("eof") { return .truncated(format: "TIFF") }
        return .corrupt(format: "TIFF", reason: safe.isEmpty ? "unreadable" : safe)
    }
}
