import Foundation
import ImageCodecs
import Testing
import TestSupport
@testable import Gallery

/// `HeapTuning` maps every buffer of 1 MB or more on its own, so a freed image buffer goes back to
/// the kernel. A progressive JPEG's whole-image coefficient arrays (about 36 MB for 12 MP) used to be
/// such buffers: each decode faulted them in again and the kernel zeroed them (54% of a progressive
/// contact sheet's CPU). They now come from the JPEG wrapper's reused arena.
@Suite struct HeapTuningTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "needs cjpeg (libjpeg-turbo-progs)"))
    func progressiveDecodesDoNotFaultTheirCoefficientArraysInAgain() throws {
        HeapTuning.apply()
        // 2048×2048 grey: its coefficient array is 65,536 blocks of 128 B, 8 MB, 2048 pages.
        let jpeg = try ScanBomb.make(width: 2048, height: 2048, repeats: 0)
        let options = DecodeOptions(targetSize: PixelSize(width: 256, height: 256))
        // Another decode in progress (as the sheet's second lane): the arena keeps blocks only
        // while some decode runs.
        let other = ImageCoders.makeIncrementalDecoder(options: options)
        other.append(jpeg.prefix(jpeg.count - 2))
        _ = other.partialImage()
        _ = try ImageCoders.decode(jpeg, options: options)
        var faults: [Int] = []
        for _ in 0..<3 {
            let before = Self.minorFaultsOfThisThread()
            let image = try ImageCoders.decode(jpeg, options: options)
            faults.append(Self.minorFaultsOfThisThread() - before)
            #expect(image.size == PixelSize(width: 256, height: 256))
        }
        #expect((faults.min() ?? .max) < 512, "page faults per decode: \(faults) (the coefficient array alone is 2048 pages)")
        withExtendedLifetime(other) {}
    }

    static func minorFaultsOfThisThread() -> Int {
        var usage = rusage()
        _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (not imported)
        return usage.ru_minflt
    }
}
