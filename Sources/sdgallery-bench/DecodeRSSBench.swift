import Foundation
import ImageCodecs

/// `sdgallery-bench decode-rss FILE [--box WxH] [--first-frame]`: one decode of FILE as the gallery
/// does it (a cell's box and first frame, or the full view's box and every frame), printing the
/// frames kept, the time and the process's peak RSS (VmHWM) before and after.
enum DecodeRSSBench {
    static func run(_ arguments: [String]) {
        guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
            print("usage: sdgallery-bench decode-rss FILE [--box WxH] [--first-frame]")
            return
        }
        var box: PixelSize?
        if let i = arguments.firstIndex(of: "--box"), i + 1 < arguments.count {
            let parts = arguments[i + 1].split(separator: "x").compactMap { Int($0) }
            if parts.count == 2 { box = PixelSize(width: parts[0], height: parts[1]) }
        }
        let options = DecodeOptions(targetSize: box, firstFrameOnly: arguments.contains("--first-frame"))
        let before = peakRSS()
        let start = Date()
        let outcome: String
        do {
            let image = try ImageCoders.decode(data, options: options)
            outcome = "\(image.size), \(max(1, image.frames.count)) frames kept"
        } catch {
            outcome = "\(error)"
        }
        let seconds = Date().timeIntervalSince(start)
        print("\(path) (\(data.count) B): \(outcome) in \(String(format: "%.2f", seconds)) s; peak RSS \(before / 1024) MB before, \(peakRSS() / 1024) MB after")
    }

    /// VmHWM in kilobytes.
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }
}
