import Foundation
import ImageCodecs
import TestSupport

/// `sdgallery-bench decode-rss FILE [--box WxH] [--first-frame] [--step]`: one decode of FILE as the
/// gallery does it (a cell's box and first frame, or the full view's box and every frame), printing
/// the frames playable (held, or streamed: decoded as they are shown), the time to the first frame
/// and the process's peak RSS (VmHWM) before and after. `--step` then asks for every frame in order,
/// as a player does, and prints the time that took and the peak RSS after it.
///
/// `sdgallery-bench decode-rss --write-gif PATH WxHxN`: writes a GIF of N frames of W×H
/// (`TestGIF.animation`: a full first frame, then a moving 64×64 square a frame) to measure.
enum DecodeRSSBench {
    static func run(_ arguments: [String]) {
        if arguments.first == "--write-gif" { return writeGIF(Array(arguments.dropFirst())) }
        guard let path = arguments.first, let data = FileManager.default.contents(atPath: path) else {
            print("usage: sdgallery-bench decode-rss FILE [--box WxH] [--first-frame] [--step]")
            print("       sdgallery-bench decode-rss --write-gif PATH WxHxN")
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
        var decoded: Image?
        do {
            let image = try ImageCoders.decode(data, options: options)
            decoded = image
            outcome = "\(image.size), \(max(1, image.frameCount)) frames playable (\(image.isStreamed ? "streamed" : "held")), cost \(image.cost >> 10) KB"
        } catch {
            outcome = "\(error)"
        }
        let seconds = Date().timeIntervalSince(start)
        print("\(path) (\(data.count) B): \(outcome) in \(String(format: "%.2f", seconds)) s; peak RSS \(before / 1024) MB before, \(peakRSS() / 1024) MB after")
        guard arguments.contains("--step"), let image = decoded, image.isAnimated else { return }
        let stepStart = Date()
        var checksum = 0
        for i in 0..<image.frameCount { checksum &+= Int(image.frameImage(i).pixels.last ?? 0) }
        let stepped = Date().timeIntervalSince(stepStart)
        print("  stepped through \(image.frameCount) frames in \(String(format: "%.2f", stepped)) s "
              + "(\(String(format: "%.1f", stepped * 1000 / Double(image.frameCount))) ms a frame); peak RSS \(peakRSS() / 1024) MB [\(checksum)]")
    }

    private static func writeGIF(_ arguments: [String]) {
        let parts = arguments.count == 2 ? arguments[1].split(separator: "x").compactMap { Int($0) } : []
        guard parts.count == 3 else { return print("usage: sdgallery-bench decode-rss --write-gif PATH WxHxN") }
        let data = TestGIF.animation(width: parts[0], height: parts[1], frames: parts[2], patch: 64)
        guard FileManager.default.createFile(atPath: arguments[0], contents: data) else { return print("could not write \(arguments[0])") }
        print("\(arguments[0]): \(data.count) B")
    }

    /// VmHWM in kilobytes.
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    }
}
