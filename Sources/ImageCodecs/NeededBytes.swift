import Foundation

/// Where the bytes end that a decode at a target size needs, read from a JPEG's markers as the bytes
/// arrive (no decoding: a few comparisons a byte, cheap enough for the network thread), so a transfer
/// can stop at that byte instead of after a fixed window or after a decode that lags behind it.
///
/// - A progressive JPEG decoded at 1/8, 1/4 or 1/2 (`DecodeGeometry.jpegScaleDenominator`) needs the
///   scans that make that scale final (`JPEGScaleCoverage`, the rule the decoder applies too); the
///   needed bytes end with the header of the next scan (or EOI), which is what libjpeg reads before
///   it counts a scan as complete.
/// - A JPEG whose EXIF thumbnail covers the target (`ExifThumbnail.covers`) needs its headers: the
///   bytes end with the first scan's header.
/// - Anything else (baseline without such a thumbnail, arithmetic coding, the full scale, not a
///   JPEG, or markers that do not parse) needs every byte.
public struct NeededBytes: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// Not known yet: more bytes are needed to tell.
        case undecided
        /// Every byte of the file.
        case all
        /// The first `count` bytes hold the image at the target, as `tier`.
        case prefix(count: Int, tier: EarlyTier)
    }

    /// What is known so far.
    public private(set) var verdict = Verdict.undecided

    private let box: PixelSize?
    /// Bytes received but not yet parsed (a marker segment being read, or a possible marker's first
    /// byte), and the file offset of the first of them.
    private var pending: [UInt8] = []
    private var position = 0
    private enum Phase { case start, markers, skip(Int), entropy }
    private var phase = Phase.start
    private var frame: (size: PixelSize, components: [UInt8], progressive: Bool, arithmetic: Bool)?
    private var exif: [UInt8]?
    private var coverage = JPEGScaleCoverage(components: 0)
    private var scan: (components: [Int], band: ClosedRange<Int>, low: UInt8)?
    private var scans = 0
    /// log2 of the scale the target is decoded at, once the headers are in.
    private var shift = 0
    private var complete = false

    /// A watch for a decode fitting `box` (nil: full size, every byte is needed).
    public init(box: PixelSize?) {
        self.box = box
        if box == nil { verdict = .all }
    }

    /// Reads the next bytes of the file.
    public mutating func append(_ bytes: Data) {
        guard verdict == .undecided else { return }
        pending.append(contentsOf: bytes)
        var i = 0
        parse(&i)
        if verdict != .undecided {
            pending = []
        } else {
            pending.removeFirst(i)
            position += i
        }
    }

    private mutating func parse(_ i: inout Int) {
        while verdict == .undecided {
            switch phase {
            case .start:
                guard pending.count >= 2 else { return }
                guard pending[0] == 0xFF, pending[1] == 0xD8 else { return verdict = .all }
                i = 2
                phase = .markers
            case .skip(let count):
                let skipped = min(count, pending.count - i)
                i += skipped
                guard skipped == count else { phase = .skip(count - skipped); return }
                phase = .markers
            case .entropy:
                guard let end = Self.markerInEntropyData(pending, from: &i) else { return }
                i = end
                endOfScan()
                phase = .markers
            case .markers:
                guard readMarker(&i) else { return }
            }
        }
    }

    /// The offset of the marker that ends entropy-coded data (not a stuffed `FF 00`, a restart marker
    /// or fill), searching from `i`; nil when the bytes end first (`i` then points where to go on).
    private static func markerInEntropyData(_ bytes: [UInt8], from i: inout Int) -> Int? {
        let count = bytes.count
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            while i < count {
                guard let hit = memchr(base + i, 0xFF, count - i) else { i = count; return nil }
                let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard j + 1 < count else { i = j; return nil }
                let next = buffer[j + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) { i = j + 2; continue }
                if next == 0xFF { i = j + 1; continue }
                return j
            }
            return nil
        }
    }

    /// Reads one marker at `i` (and its segment when its content matters); false when more bytes
    /// are needed.
    private mutating func readMarker(_ i: inout Int) -> Bool {
        guard i + 2 <= pending.count else { return false }
        guard pending[i] == 0xFF else { verdict = .all; return true }
        let marker = pending[i + 1]
        switch marker {
        case 0xFF: i += 1; return true  // fill
        case 0x01, 0xD0...0xD7: i += 2; return true
        case 0xD9:
            verdict = complete ? Self.prefix(position + i + 2, shift) : .all
            return true
        default: break
        }
        guard i + 4 <= pending.count else { return false }
        let length = Int(pending[i + 2]) << 8 | Int(pending[i + 3])
        guard length >= 2 else { verdict = .all; return true }
        let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
        guard marker == 0xDA || marker == 0xE1 || isFrame else {
            i += 2
            phase = .skip(length)
            return true
        }
        guard i + 2 + length <= pending.count else { return false }
        let body = Array(pending[(i + 4)..<(i + 2 + length)])
        let end = position + i + 2 + length
        i += 2 + length
        if marker == 0xE1 {
            if exif == nil, body.starts(with: Array("Exif\0\0".utf8)) { exif = body }
        } else if isFrame {
            if frame == nil { readFrame(marker, body) }
        } else if complete {
            verdict = Self.prefix(end, shift)  // the next scan's header: the needed scans are complete
        } else {
            if scans == 0 {
                decide(headersEnd: end)
                guard verdict == .undecided else { return true }
            }
            readScan(body)
            phase = .entropy
        }
        return true
    }

    private static func prefix(_ count: Int, _ shift: Int) -> Verdict {
        .prefix(count: count, tier: shift == 0 ? .exifThumbnail : .scale(denominator: 1 << shift))
    }

    private mutating func readFrame(_ marker: UInt8, _ body: [UInt8]) {
        guard body.count >= 6 else { verdict = .all; return }
        let height = Int(body[1]) << 8 | Int(body[2]), width = Int(body[3]) << 8 | Int(body[4])
        let count = Int(body[5])
        guard width > 0, height > 0, count > 0, body.count >= 6 + 3 * count else { verdict = .all; return }
        let ids = (0..<count).map { body[6 + 3 * $0] }
        frame = (PixelSize(width: width, height: height), ids, [0xC2, 0xC6, 0xCA, 0xCE].contains(marker), marker >= 0xC9)
    }

    /// The first scan's header is in, so are the headers: an EXIF thumbnail that covers the target
    /// ends the needed bytes here; else only a progressive file decoded below full scale can stop early.
    private mutating func decide(headersEnd: Int) {
        guard let frame, let box else { verdict = .all; return }
        let orientation = exif.map { ExifOrientation.parse(exif: $0) } ?? .up
        let geometry = DecodeGeometry(stored: frame.size, orientation: orientation, box: box)
        if let exif, let thumbnail = ExifThumbnail.parse(exif: exif), let size = JPEGHead.frameSize(thumbnail.jpeg),
           ExifThumbnail.covers(size, geometry: geometry, box: box) {
            verdict = Self.prefix(headersEnd, 0)
            return
        }
        let denominator = geometry.jpegScaleDenominator
        guard frame.progressive, !frame.arithmetic, denominator > 1 else { verdict = .all; return }
        shift = denominator.trailingZeroBitCount
        coverage = JPEGScaleCoverage(components: frame.components.count)
    }

    private mutating func readScan(_ body: [UInt8]) {
        guard let frame, let count = body.first, body.count >= 1 + 2 * Int(count) + 3 else { verdict = .all; return }
        let ids = (0..<Int(count)).map { body[1 + 2 * $0] }
        let tail = 1 + 2 * Int(count)
        let start = Int(body[tail]), end = Int(body[tail + 1]), low = body[tail + 2] & 0x0F
        scans += 1
        guard scans <= 1000 else { verdict = .all; return }  // a scan bomb: the decoder refuses it anyway
        guard start <= end, end < 64 else { scan = nil; return }
        scan = (ids.compactMap { frame.components.firstIndex(of: $0) }, start...end, low)
    }

    /// The current scan's data ended: its coefficients count, and the scale may now be complete.
    private mutating func endOfScan() {
        guard let scan else { return }
        self.scan = nil
        coverage.add(components: scan.components, band: scan.band, low: scan.low)
        complete = coverage.isComplete(shift: shift)
    }
}
