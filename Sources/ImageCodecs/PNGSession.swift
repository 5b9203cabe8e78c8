import CPNG
import Foundation

/// One PNG decode through libpng's progressive reader (see `CPNG`), one-shot or fed in chunks of
/// any size. Partial images: rows so far (non-interlaced) or a blocky preview after each completed
/// Adam7 pass. Not thread-safe: one owner.
final class PNGSession {
    private let handle: OpaquePointer
    private let options: DecodeOptions
    private var geometry: DecodeGeometry?
    private var interlaced = false
    private var done = false
    private var error: DecodeError?
    private var shownRows = 0
    private var shownPasses = 0
    private var lastPartial: Image?
    private let incremental: Bool
    /// The first bytes, kept until IHDR is in and the working memory is reserved (libpng allocates
    /// the whole image as soon as it reads IHDR).
    private var head: Data? = Data()
    /// This decode's working memory (`DecodeMemory`), held until the session goes.
    private var memory: DecodeMemory.Reservation?
    /// An incremental session whose working memory did not fit the budget when IHDR came: it stops
    /// there, and its owner decodes the bytes one-shot at the end (`SniffingDecoder`).
    private(set) var refused = false
    /// IHDR is in and the working memory held, or the data failed.
    var started: Bool { (head == nil && !refused) || error != nil }

    /// Bytes up to the end of IHDR's data: signature, length, type, 13 bytes.
    private static let headerLength = 33

    init(options: DecodeOptions, incremental: Bool) throws {
        guard let handle = sdg_png_create(UInt64(max(0, options.pixelLimit))) else {
            throw DecodeError.corrupt(format: "PNG", reason: "out of memory")
        }
        self.handle = handle
        self.options = options
        self.incremental = incremental
    }

    deinit { sdg_png_destroy(handle) }

    /// Decodes complete data in one go.
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        let session = try PNGSession(options: options, incremental: false)
        session.append(data)
        return try session.finish()
    }

    /// Feeds bytes straight to libpng (it keeps only what it needs between calls).
    func append(_ data: Data) {
        guard error == nil, !done, !refused, !data.isEmpty else { return }
        var data = data
        if var bytes = head {
            if incremental {
                bytes.append(data)
                guard bytes.count >= Self.headerLength else { head = bytes; return }
                data = bytes
            }
            head = nil
            reserveMemory(header: data)
            guard error == nil, !refused else { return }
        }
        let status = data.withUnsafeBytes { raw in
            sdg_png_feed(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        if geometry == nil {
            var info = sdg_png_info()
            if sdg_png_header(handle, &info) != 0 {
                geometry = DecodeGeometry(stored: PixelSize(width: Int(info.width), height: Int(info.height)), box: options.targetSize)
                interlaced = info.interlaced != 0
            }
        }
        switch status {
        case Int32(SDG_PNG_DONE): done = true
        case Int32(SDG_PNG_TOO_LARGE):
            error = .tooLarge(width: geometry?.stored.width ?? 0, height: geometry?.stored.height ?? 0)
        case Int32(SDG_PNG_ERROR):
            error = .corrupt(format: "PNG", reason: String(cString: sdg_png_message(handle)))
        default: break
        }
    }

    /// Working memory from IHDR: libpng's RGBA image, the target (scaled straight from libpng's
    /// buffer; the image copied only when it is the target), and for an incremental decode of an
    /// Adam7 file one more image (its preview fills the whole image).
    /// A header that does not parse reserves nothing: libpng then fails on it.
    private func reserveMemory(header: Data) {
        let b = [UInt8](header.prefix(Self.headerLength))
        guard b.count == Self.headerLength, b[12...15].elementsEqual("IHDR".utf8) else { return }
        func word(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        let stored = PixelSize(width: word(16), height: word(20))
        guard stored.area <= options.pixelLimit else { return }  // libpng's own limit refuses it
        let target = DecodeGeometry(stored: stored, box: options.targetSize).target
        let copies = 1 + (target == stored ? 1 : 0) + (incremental && b[28] != 0 ? 1 : 0)
        let bytes = stored.area * 4 * copies + (target == stored ? 0 : target.area * 8)
        if incremental {
            memory = options.memory.tryReserve(bytes)
            refused = memory == nil
        } else {
            do { memory = try options.memory.reserve(bytes) } catch { self.error = error }
        }
    }

    /// Rows so far, or the last completed Adam7 pass with its gaps filled by block replication.
    func partialImage() -> Image? {
        guard let geometry, let pixels = sdg_png_pixels(handle), !done, error == nil else { return lastPartial }
        let w = geometry.stored.width, h = geometry.stored.height
        if interlaced {
            let passes = Int(sdg_png_completed_passes(handle))
            guard passes > shownPasses, passes > 0 else { return lastPartial }
            shownPasses = passes
            lastPartial = geometry.finish(Self.adam7Preview(pixels, width: w, height: h, passes: passes))
        } else {
            let rows = Int(sdg_png_rows(handle))
            guard rows > shownRows else { return lastPartial }
            shownRows = rows
            lastPartial = geometry.finish(pixels, size: PixelSize(width: w, height: h))
        }
        return lastPartial
    }

    /// An Adam7 file whose target is at most 1/8 of it per axis, once its first pass is in: that
    /// pass holds one pixel of every 8×8 block, as many as the target shows. Nil before, or when
    /// more is needed (rows of a non-interlaced file are final only at the end).
    func firstPassImage() -> Image? {
        guard interlaced, !done, error == nil, let geometry, let pixels = sdg_png_pixels(handle) else { return nil }
        let w = geometry.stored.width, h = geometry.stored.height
        let sw = (w + 7) / 8, sh = (h + 7) / 8
        guard geometry.target.width <= sw, geometry.target.height <= sh, sdg_png_completed_passes(handle) >= 1 else { return nil }
        var out = [UInt8](repeating: 0, count: sw * sh * 4)
        for y in 0..<sh {
            for x in 0..<sw {
                let s = (y * 8 * w + x * 8) * 4, d = (y * sw + x) * 4
                for c in 0..<4 { out[d + c] = pixels[s + c] }
            }
        }
        return geometry.finish(Bitmap(width: sw, height: sh, pixels: out), denominator: 8)
    }

    /// All bytes are in: the final image or the error (`.truncated` when IEND never came).
    func finish() throws -> Image {
        if let error { throw error }
        guard done, let geometry, let pixels = sdg_png_pixels(handle) else { throw DecodeError.truncated(format: "PNG") }
        return geometry.finish(pixels, size: geometry.stored)
    }

    /// Pixel block each known pixel stands for after `passes` Adam7 passes.
    static func adam7Block(passes: Int) -> (width: Int, height: Int) {
        let blocks = [(8, 8), (8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)]
        return blocks[max(0, min(7, passes))]
    }

    /// Every pixel takes the value of the top-left pixel of its Adam7 block (decoded by then).
    static func adam7Preview(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, passes: Int) -> Bitmap {
        let (bw, bh) = adam7Block(passes: passes)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let sy = y - y % bh
                for x in 0..<width {
                    let s = (sy * width + x - x % bw) * 4, d = (y * width + x) * 4
                    dst[d] = pixels[s]; dst[d + 1] = pixels[s + 1]; dst[d + 2] = pixels[s + 2]; dst[d + 3] = pixels[s + 3]
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: out)
    }
}
