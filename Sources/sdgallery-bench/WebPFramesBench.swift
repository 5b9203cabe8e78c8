import CWebP
import Foundation
import ImageCodecs
import TestSupport

/// `sdgallery-bench codecs` part two: animated WebP of 5,000 to 40,000 frames (one 40×30 frame
/// repeated), every frame decoded into a 320×200 box by ours (`WebPAnimation`, one walk of the
/// chunks) and by libwebp's own `WebPAnimDecoder` (which finds frame n from the first), side by side.
enum WebPFramesBench {
    static func run(frame: Data) {
        print("")
        print("| frames | ours (ms) | WebPAnimDecoder (ms) | ratio |")
        print("|---:|---:|---:|---:|")
        for count in [5_000, 10_000, 20_000, 40_000] {
            let data = WebPAnimations.repeatingFirstFrame(frame, count: count)
            let clock = ContinuousClock()
            let t0 = clock.now
            let frames = (try? ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 320, height: 200))))?.frameCount ?? 0
            let ours = clock.now - t0
            let t1 = clock.now
            let theirs = libwebpFrames(data)
            let libwebp = clock.now - t1
            guard frames == count, theirs == count else {
                print("| \(count) | \(frames) frames | \(theirs) frames | |")
                continue
            }
            let a = milliseconds(ours), b = milliseconds(libwebp)
            print("| \(count) | \(CodecBench.format(a)) | \(CodecBench.format(b)) | \(String(format: "%.1f×", b / a)) |")
        }
    }

    /// Frames libwebp's animation decoder gives for `data`.
    static func libwebpFrames(_ data: Data) -> Int {
        data.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), let decoder = sdg_webp_anim_new(base, raw.count) else { return 0 }
            defer { WebPAnimDecoderDelete(decoder) }
            var frames = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0 else { break }
                frames += 1
            }
            return frames
        }
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }
}
