import CJPEG
import Foundation

/// One JPEG decode through libjpeg-turbo (see `CJPEG`), one-shot or fed in chunks.
///
/// Single-pass mode yields rows as they arrive (baseline) or everything at the end; buffered-image
/// mode (every non-arithmetic progressive file) renders each completed scan, up to the scan limit
/// (`DecodeOptions.scanLimit`). Input already consumed by libjpeg is dropped, so memory stays
/// bounded by the image. Not thread-safe: one owner.
final class JPEGSession {
    /// Bytes to collect before asking libjpeg to parse again (it re-parses from its restart point).
    static let minimumStep = 4096

    private let handle: OpaquePointer
    private let options: DecodeOptions
    private let incremental: Bool
    private var geometry: DecodeGeometry?
    private var progressive = false
    private var buffered = false
    private var arithmetic = false
    private var finishing = false
    private var outputSize = PixelSize(width: 0, height: 0)
    private var done = false
    private var error: DecodeError?
    private var pending = 0
    private var shownRows = 0
    private var shownScans = 0
    /// What the scan headers read so far carry (`sufficientScan`), how many were looked at, and the
    /// scan after which the target's scale is final once found.
    private var coverage: JPEGScaleCoverage?
    private var coveredScans = 0
    private var coverageScan: Int?
    /// The frame's components (from the header).
    private var components = 0
    private var renderedLast = false
    private var lastPartial: Image?
    /// The EXIF thumbnail's JPEG, when the header carried one (`exifThumbnailImage()`).
    private var exifThumbnail: ExifThumbnail?
    /// This decode's working memory, held from the header until the session goes (`DecodeMemory`).
    private var memory: DecodeMemory.Reservation?
    /// An incremental session whose working memory did not fit the budget when its header came:
    /// it stops there, and its owner decodes the bytes one-shot at the end (`SniffingDecoder`).
    private(set) var refused = false
    /// The header is in and the working memory held, or the data failed.
    var started: Bool { geometry != nil || error != nil }

    /// Whether the header's reservation waits for room (`DecodeMemory.reserve`) instead of being
    /// refused when memory is short: one-shot decodes, and incremental ones fed from bytes all there.
    private let waitsForMemory: Bool

    init(options: DecodeOptions, incremental: Bool, waitsForMemory: Bool? = nil) throws {
        guard let handle = sdg_jpeg_create() else { throw DecodeError.corrupt(format: "JPEG", reason: "out of memory") }
        self.handle = handle
        self.options = options
        self.incremental = incremental
        self.waitsForMemory = waitsForMemory ?? !incremental
    }

    deinit { sdg_jpeg_destroy(handle) }

    /// Decodes complete data in one go. libjpeg reads the bytes where they are (`sdg_jpeg_borrow`):
    /// copying a 12 MP file into the session's buffer first faulted in and filled another 4–8 MB of
    /// fresh pages per image.
    static func decode(_ data: Data, options: DecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw DecodeError.truncated(format: "JPEG") }
        return try data.withUnsafeBytes { raw in
            let session = try JPEGSession(options: options, incremental: false)
            guard sdg_jpeg_borrow(session.handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count) != 0 else {
                throw DecodeError.corrupt(format: "JPEG", reason: "input already given")
            }
            session.pending = raw.count
            return try session.finish()
        }
    }

    /// Bytes held for input libjpeg has not consumed yet.
    var inputCapacity: Int { sdg_jpeg_input_capacity(handle) }

    /// Adds bytes; parses when enough have gathered.
    func append(_ data: Data) {
        guard error == nil, !done, !data.isEmpty else { return }
        let ok = data.withUnsafeBytes { raw in
            sdg_jpeg_append(handle, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        }
        if ok == 0 { error = .corrupt(format: "JPEG", reason: "out of memory"); return }
        pending += data.count
        if incremental && pending >= Self.minimumStep { advance() }
    }

    /// Parses and decodes as far as the bytes so far allow; records the first error.
    private func advance() {
        pending = 0
        guard error == nil, !done else { return }
        do { try step() } catch let e as DecodeError { error = e } catch { self.error = .corrupt(format: "JPEG", reason: "\(error)") }
    }

    private func step() throws {
        if refused { return }
        if geometry == nil {
            var info = sdg_jpeg_info()
            switch sdg_jpeg_read_header(handle, &info) {
            case Int32(SDG_JPEG_SUSPENDED): return
            case Int32(SDG_JPEG_OK): try configure(info)
            default: throw corrupt()
            }
            if refused { return }
        }
        // libjpeg's arithmetic decoder cannot suspend ("Suspension not allowed here" on a chunk
        // boundary): arithmetic-coded data is decoded once every byte is in.
        if arithmetic && incremental && !finishing { return }
        let status = sdg_jpeg_advance(handle)
        if status == Int32(SDG_JPEG_ERROR) { throw corrupt() }
        if status == Int32(SDG_JPEG_DONE) { done = true }
    }

    private func configure(_ info: sdg_jpeg_info) throws {
        var length = 0
        var orientation = ExifOrientation.up
        if let exif = sdg_jpeg_exif(handle, &length) {
            let payload = Array(UnsafeBufferPointer(start: exif, count: length))
            orientation = ExifOrientation.parse(exif: payload)
            if options.targetSize != nil { exifThumbnail = ExifThumbnail.parse(exif: payload) }
        }
        let g = DecodeGeometry(stored: PixelSize(width: Int(info.width), height: Int(info.height)), orientation: orientation, box: options.targetSize)
        try g.checkLimit(options.pixelLimit)
        progressive = info.progressive != 0
        components = Int(info.components)
        arithmetic = info.arithmetic != 0
        // Progressive files always go through buffered-image mode, where consuming input stops at
        // the scan limit and the last scan allowed is the image (single-pass mode would fail there).
        buffered = progressive && !arithmetic
        // Working memory: the RGBA output at the DCT scale (copied only when it is the target), the
        // target, and in buffered mode every coefficient of the image (600 MB for a progressive
        // 10000×10000).
        let d = g.jpegScaleDenominator
        let output = PixelSize(width: (g.stored.width + d - 1) / d, height: (g.stored.height + d - 1) / d)
        let bytes = Self.saturated(output.area, times: g.target == output ? 8 : 4) + (g.target == output ? 0 : g.target.area * 8) + (buffered ? Int(clamping: info.coefficient_bytes) : 0)
        if !waitsForMemory {
            guard let granted = options.memory.tryReserve(bytes) else { refused = true; return }
            memory = granted
        } else {
            memory = try options.memory.reserve(bytes)
        }
        sdg_jpeg_set_scan_limit(handle, Int32(clamping: options.scanLimit(area: g.stored.area)))
        var w: Int32 = 0, h: Int32 = 0
        guard sdg_jpeg_configure(handle, Int32(g.jpegScaleDenominator), buffered ? 1 : 0, &w, &h) == Int32(SDG_JPEG_OK) else { throw corrupt() }
        outputSize = PixelSize(width: Int(w), height: Int(h))
        geometry = g
    }

    private static func saturated(_ value: Int, times factor: Int) -> Int {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : product
    }

    private func corrupt() -> DecodeError {
        .corrupt(format: "JPEG", reason: String(cString: sdg_jpeg_message(handle)))
    }

    /// The output buffer as it is now, finished to the target size and orientation.
    private func snapshot() -> Image? {
        guard let geometry, let pixels = sdg_jpeg_pixels(handle) else { return nil }
        return geometry.finish(pixels, size: outputSize, denominator: geometry.jpegScaleDenominator)
    }

    /// The best image so far: the last completed scan (progressive) or the rows decoded so far.
    func partialImage() -> Image? {
        if pending > 0 { advance() }
        guard geometry != nil, error == nil else { return lastPartial }
        if buffered {
            let scans = Int(sdg_jpeg_completed_scans(handle))
            if scans > shownScans, render(scan: scans) >= Int32(SDG_JPEG_OK) {
                lastPartial = snapshot()
            }
        } else {
            let rows = Int(sdg_jpeg_rows(handle))
            if rows > shownRows {
                shownRows = rows
                lastPartial = snapshot()
            }
        }
        return lastPartial
    }

    /// Renders scan `scan` (buffered mode); notes whether that was the final output.
    private func render(scan: Int) -> Int32 {
        let status = sdg_jpeg_render_scan(handle, Int32(scan))
        if status >= Int32(SDG_JPEG_OK) { shownScans = scan }
        if status == Int32(SDG_JPEG_DONE) { renderedLast = true }
        return status
    }

    /// A progressive file decoded at 1/8, 1/4 or 1/2 for its target, once the scans that carry that
    /// scale's coefficients have arrived (`JPEGScaleCoverage` over the scan headers libjpeg read: each component's low (8/d)²
    /// coefficients with at most log2(d) low bits missing — the DC scans for 1/8): the image at that
    /// scale, which has every pixel the target needs, as final. Nil before, or when the target needs
    /// the full scale.
    func scaledImage() -> Image? {
        if pending > 0 { advance() }
        guard buffered, error == nil, let geometry, geometry.jpegScaleDenominator > 1 else { return nil }
        guard let needed = sufficientScan(shift: geometry.jpegScaleDenominator.trailingZeroBitCount) else { return nil }
        let scans = Int(sdg_jpeg_completed_scans(handle))
        guard scans >= needed else { return nil }
        if scans > shownScans, render(scan: scans) < Int32(SDG_JPEG_OK) { return nil }
        lastPartial = snapshot()
        return lastPartial
    }

    /// The first scan after which scale 1/(1 << `shift`) is final (`JPEGScaleCoverage` over the scan
    /// headers libjpeg read so far), nil before.
    private func sufficientScan(shift: Int) -> Int? {
        if let found = coverageScan { return found }
        let count = Int(sdg_jpeg_scan_count(handle))
        var header = sdg_jpeg_scan_header()
        while coveredScans < count, sdg_jpeg_scan_at(handle, Int32(coveredScans), &header) != 0 {
            if coverage == nil { coverage = JPEGScaleCoverage(components: components) }
            let components = withUnsafeBytes(of: header.components) { Array($0.prefix(Int(header.count))).map(Int.init) }
            if header.valid != 0 { coverage?.add(components: components, band: Int(header.ss)...Int(header.se), low: header.al) }
            coveredScans += 1
            if coverage?.isComplete(shift: shift) == true {
                coverageScan = coveredScans
                return coveredScans
            }
        }
        return nil
    }

    /// The DCT scale denominator the target is decoded at (8, 4, 2, or 1 before the header or at full scale).
    var scaleDenominator: Int { geometry?.jpegScaleDenominator ?? 1 }

    /// The EXIF thumbnail as the target's image, when it holds every pixel the target shows: the
    /// image fitted into the target is no larger than the thumbnail, and the thumbnail has the
    /// image's aspect (within 2%). Oriented by the image's EXIF orientation; `sourceSize` is the
    /// whole image's. Nil otherwise (or when the thumbnail does not decode).
    func exifThumbnailImage() -> Image? {
        if pending > 0 { advance() }
        guard error == nil, let geometry, let thumbnail = exifThumbnail, let box = options.targetSize else { return nil }
        exifThumbnail = nil  // looked at once
        guard let stored = try? JPEGSession.decode(Data(thumbnail.jpeg), options: DecodeOptions(pixelLimit: 1 << 22, memory: options.memory)) else { return nil }
        let thumb = stored.size  // the thumbnail has no EXIF of its own: stored axes, as the image's
        guard ExifThumbnail.covers(thumb, geometry: geometry, box: box) else { return nil }
        let bitmap = Bitmap(width: thumb.width, height: thumb.height, pixels: stored.pixels)
        return bitmap.scaled(to: geometry.target).oriented(geometry.orientation).image(sourceSize: geometry.display)
    }

    /// All bytes are in: the final image, or the error (`.truncated` when the data ended early).
    func finish() throws -> Image {
        finishing = true
        advance()
        if let error { throw error }
        guard geometry != nil else { throw DecodeError.truncated(format: "JPEG") }
        if buffered && !renderedLast {
            // The whole input is in once libjpeg has seen EOI: render the last scan.
            let status = sdg_jpeg_advance(handle)
            guard status != Int32(SDG_JPEG_ERROR) else { throw corrupt() }
            guard status >= Int32(SDG_JPEG_OK) else { throw DecodeError.truncated(format: "JPEG") }
            let rendered = render(scan: Int(sdg_jpeg_completed_scans(handle)))
            guard rendered != Int32(SDG_JPEG_ERROR) else { throw corrupt() }
            guard renderedLast else { throw DecodeError.truncated(format: "JPEG") }
        } else if !done && Int(sdg_jpeg_rows(handle)) < outputSize.height {
            // Every row present but no EOI marker is accepted, as browsers do.
            throw DecodeError.truncated(format: "JPEG")
        }
        done = true
        guard let image = snapshot() else { throw DecodeError.truncated(format: "JPEG") }
        return image
    }
}
