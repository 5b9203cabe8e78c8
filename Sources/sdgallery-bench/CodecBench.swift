import Foundation
import ImageCodecs

/// `sdgallery-bench codecs [DIR]`: decodes a 12 MP baseline and progressive JPEG, a 4 MP PNG and a
/// 4096² WebP at full size and into a 320×200 box, and prints a markdown table of ms per image; then
/// animated WebPs of many frames against libwebp's animation decoder (`WebPFramesBench`).
/// Inputs are made with /usr/bin/convert, cjpeg, cwebp and img2webp into DIR (reused if present) or a temp dir.
enum CodecBench {
    struct Input {
        let file: String
        let label: String
    }

    static let inputs = [
        Input(file: "baseline-12mp.jpg", label: "JPEG baseline 4000×3000"),
        Input(file: "progressive-12mp.jpg", label: "JPEG progressive 4000×3000"),
        Input(file: "png-4mp.png", label: "PNG 2000×2000 RGB"),
        Input(file: "webp-4096.webp", label: "WebP lossy 4096×4096"),
    ]
    static let box = PixelSize(width: 320, height: 200)

    static func run(arguments: [String]) {
        let dir = arguments.first.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-bench-codecs")
        do {
            try makeInputs(in: dir)
        } catch {
            print("could not make inputs in \(dir.path): \(error)")
            return
        }
        print("| input | bytes | full (ms) | into 320×200 (ms) | scaled size | scaled/full |")
        print("|---|---:|---:|---:|---|---:|")
        for input in inputs {
            guard let data = try? Data(contentsOf: dir.appendingPathComponent(input.file)) else {
                print("| \(input.label) | missing | | | | |")
                continue
            }
            do {
                let full = try measure(data, options: DecodeOptions())
                let scaled = try measure(data, options: DecodeOptions(targetSize: box))
                let ratio = scaled.ms / full.ms
                print("| \(input.label) | \(data.count) | \(format(full.ms)) | \(format(scaled.ms)) | \(scaled.size) | \(String(format: "%.2f×", ratio)) |")
            } catch {
                print("| \(input.label) | \(data.count) | error: \(error) | | | |")
            }
        }
        if let animation = try? Data(contentsOf: dir.appendingPathComponent("anim-frame.webp")) {
            WebPFramesBench.run(frame: animation)
        }
    }

    /// Median milliseconds per decode over at least 3 runs and about a second (after one warm-up).
    static func measure(_ data: Data, options: DecodeOptions) throws -> (ms: Double, size: PixelSize) {
        let clock = ContinuousClock()
        var size = try ImageCoders.decode(data, options: options).size
        var samples: [Double] = []
        let start = clock.now
        while samples.count < 3 || (clock.now - start < .seconds(1) && samples.count < 25) {
            let t0 = clock.now
            size = try ImageCoders.decode(data, options: options).size
            let d = clock.now - t0
            samples.append(Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        }
        samples.sort()
        return (samples[samples.count / 2], size)
    }

    static func format(_ ms: Double) -> String { String(format: ms < 10 ? "%.2f" : "%.1f", ms) }

    /// Makes the inputs that are not there yet (a plasma picture with noise, so files have
    /// photo-like entropy).
    static func makeInputs(in dir: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        if !fm.fileExists(atPath: path("anim-frame.webp")) {
            // Two 40×30 frames (img2webp): the bench repeats the first.
            try tool("/usr/bin/convert", "-size", "40x30", "plasma:", path("frame-a.png"))
            try tool("/usr/bin/convert", "-size", "40x30", "gradient:", path("frame-b.png"))
            try tool("img2webp", "-lossy", "-q", "60", path("frame-a.png"), path("frame-b.png"), "-o", path("anim-frame.webp"))
        }
        if inputs.allSatisfy({ fm.fileExists(atPath: path($0.file)) }) { return }
        print("making benchmark inputs in \(dir.path) …")
        let source = path("source-12mp.ppm")
        try tool("/usr/bin/convert", "-size", "800x600", "-seed", "11", "plasma:fractal", "-blur", "0x1",
                 "-resize", "4000x3000!", "-attenuate", "0.4", "+noise", "Gaussian", source)
        try tool("cjpeg", "-quality", "85", "-outfile", path("baseline-12mp.jpg"), source)
        try tool("cjpeg", "-quality", "85", "-progressive", "-outfile", path("progressive-12mp.jpg"), source)
        try tool("/usr/bin/convert", source, "-resize", "2000x2000!", "PNG24:" + path("png-4mp.png"))
        try tool("/usr/bin/convert", source, "-resize", "4096x4096!", path("source-4096.ppm"))
        try tool("cwebp", "-quiet", "-q", "80", path("source-4096.ppm"), "-o", path("webp-4096.webp"))
        try? fm.removeItem(atPath: source)
        try? fm.removeItem(atPath: path("source-4096.ppm"))
    }

    struct ToolError: Error, CustomStringConvertible {
        let description: String
    }

    static func tool(_ executable: String, _ args: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/" + executable)
        process.arguments = args
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw ToolError(description: "\(executable) exited with \(process.terminationStatus)")
        }
    }
}
