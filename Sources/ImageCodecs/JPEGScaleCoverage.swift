/// When a progressive JPEG decoded at 1/d (8, 4 or 2) is final: every component has each of its low
/// (8/d)×(8/d) coefficients (1/8: the DC; 1/4: the 2×2 square, zigzag 0, 1, 2, 4; 1/2: the 4×4 square,
/// up to zigzag 24) with at most log2(d) successive-approximation low bits missing (Al ≤ 3, 2, 1). A
/// missing low bit doubles a coefficient's quantisation step; an output pixel sums (8/d)² of them, so
/// its error grows as (8/d)·2^Al and the rule keeps it at the one step the encoder already spent.
/// libjpeg's default script is final at 1/8 after scan 1 (DC, Al 1), at 1/4 after scan 4 (luma 1–5 at
/// Al 2, chroma 1–63 at Al 1) and at 1/2 after scan 6 (luma 1–63 refined to Al 1).
///
/// One rule for both sides: `JPEGSession` applies it to the scan headers libjpeg read, `NeededBytes`
/// to the same headers read from the bytes on the network thread.
struct JPEGScaleCoverage {
    /// Per component, per coefficient (zigzag order): the low bits still missing (255: none seen).
    private var missing: [[UInt8]]

    init(components: Int) {
        missing = Array(repeating: Array(repeating: 255, count: 64), count: max(0, components))
    }

    /// A scan's data arrived: its components (indices into the frame's) carry `band` at point
    /// transform `low`.
    mutating func add(components: [Int], band: ClosedRange<Int>, low: UInt8) {
        guard band.lowerBound >= 0, band.upperBound < 64 else { return }
        for component in components where missing.indices.contains(component) {
            for k in band where low < missing[component][k] { missing[component][k] = low }
        }
    }

    /// Whether scale 1/(1 << `shift`) (shift 1…3) is final as of the scans added.
    func isComplete(shift: Int) -> Bool {
        guard (1...3).contains(shift), !missing.isEmpty else { return false }
        let n = 8 >> shift
        return missing.allSatisfy { bits in
            (0..<n).allSatisfy { row in (0..<n).allSatisfy { column in bits[Self.zigzagOfNatural[row * 8 + column]] <= shift } }
        }
    }

    /// The zigzag index of each coefficient in natural (row-major) order.
    static let zigzagOfNatural: [Int] = {
        let natural = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
                       35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63]
        var inverse = [Int](repeating: 0, count: 64)
        for (zigzag, index) in natural.enumerated() { inverse[index] = zigzag }
        return inverse
    }()
}
