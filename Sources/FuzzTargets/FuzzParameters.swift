import Foundation

/// Deterministic pseudo-random choices derived from the input bytes (FNV-1a seed, SplitMix64
/// steps): chunk sizes, target boxes and options vary with the input, yet replaying an input
/// repeats exactly what the fuzzer ran, and committed corpus files stay plain image files.
struct FuzzParameters {
    private var state: UInt64

    init(_ data: Data) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability 1 / `n`.
    mutating func oneIn(_ n: Int) -> Bool { next() % UInt64(n) == 0 }
}
