import Foundation
import TestSupport
import ImageCodecs
import TerminalGraphics

/// `sdgallery-bench render [iterations]`: encodes one screen of 24 thumbnails (160×96 px, synthetic
/// photo-like pixels) as sixel, kitty and half-block truecolor, prints ms and bytes per screen (and
/// kitty's upload of one 24-frame animation of them), and compares sixel with `img2sixel` on the
/// same pixels (PPM files).
enum RenderBench {
    static let thumbnail = PixelSize(width: 160, height: 96)
    static let cells = CellSize(columns: 16, rows: 5)  // 160×100 px at 10×20 px cells
    static let cell = PixelSize.cell(width: 10, height: 20)

    static func run(arguments: [String]) {
        let iterations = arguments.first.flatMap(Int.init) ?? 10
        let images = (0..<24).map { photo(width: thumbnail.width, height: thumbnail.height, seed: UInt64($0 + 1)) }
        print("one screen = 24 thumbnails of \(thumbnail) in \(cells) (cell \(cell)); median of \(iterations) runs")
        print("| renderer | ms / screen (median) | ms / screen (min) | bytes / screen |")
        print("|---|---:|---:|---:|")
        let renderers: [(String, any ImageRenderer)] = [
            ("sixel (libsixel, 256 colours, Atkinson)", SixelRenderer()),
            ("kitty (raw RGB, base64)", KittyRenderer()),
            ("half-block truecolor", HalfBlockRenderer(colorDepth: .truecolor)),
            ("half-block 256", HalfBlockRenderer(colorDepth: .color256)),
        ]
        var sixelScreen: [[UInt8]] = []
        for (name, renderer) in renderers {
            var outputs: [[UInt8]] = []
            let times = (0..<(iterations + 1)).map { _ in
                measure { outputs = images.map { (try? renderer.render($0, cells: cells, cellPixelSize: cell).bytes) ?? [] } }
            }.dropFirst()
            if renderer is SixelRenderer { sixelScreen = outputs }
            row(name, Array(times), outputs.reduce(0) { $0 + $1.count })
        }

        // kitty playing an animation itself: one thumbnail's 24 frames encoded into one upload
        // (`renderAnimation`), against its first frame alone.
        let animation = Image(width: thumbnail.width, height: thumbnail.height, pixels: images[0].pixels,
                              frames: images.map { ImageFrame(pixels: $0.pixels, duration: 0.05) })
        var animationBytes = 0
        let animationTimes = (0..<(iterations + 1)).map { _ in
            measure { animationBytes = (try? KittyRenderer().renderAnimation(animation, cells: cells, cellPixelSize: cell).upload?.bytes.count) ?? 0 }
        }.dropFirst()
        row("kitty animation of 24 frames, one upload (per animation)", Array(animationTimes), animationBytes)

        let cache = EncodedOutputCache()
        let sixel = SixelRenderer()
        for image in images { _ = try? cache.render(image, cells: cells, cellPixelSize: cell, with: sixel) }
        var cachedBytes = 0
        let cached = (0..<iterations).map { _ in
            measure { cachedBytes = images.reduce(0) { $0 + ((try? cache.render($1, cells: cells, cellPixelSize: cell, with: sixel).bytes.count) ?? 0) } }
        }
        row("sixel repaint from EncodedOutputCache", cached, cachedBytes)
        compareWithImg2sixel(images: images, ours: sixelScreen, iterations: min(iterations, 5))
    }

    static func compareWithImg2sixel(images: [Image], ours: [[UInt8]], iterations: Int) {
        guard let img2sixel = which("img2sixel") else {
            print("\nimg2sixel not found: comparison skipped")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for (index, image) in images.enumerated() {
            let path = dir.appendingPathComponent("thumb\(index).ppm").path
            var ppm = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
            for i in 0..<(image.width * image.height) { ppm += image.pixels[(i * 4)..<(i * 4 + 3)] }
            _ = FileManager.default.createFile(atPath: path, contents: Data(ppm))
            files.append(path)
        }
        var batchBytes = 0
        let batch = (0..<iterations).map { _ in measure { batchBytes = ChildProcess.bytes(img2sixel, files).count } }
        row("img2sixel, one process for 24 files", batch, batchBytes)
        var perFile: [[UInt8]] = []
        let separate = (0..<iterations).map { _ in measure { perFile = files.map { ChildProcess.bytes(img2sixel, [$0]) } } }
        row("img2sixel, one process per file", separate, perFile.reduce(0) { $0 + $1.count })

        func meanDifference(_ screen: [[UInt8]]) -> String {
            var total = 0.0
            for (image, bytes) in zip(images, screen) {
                guard let decoded = try? SixelRenderer.decode(bytes), decoded.width == image.width else { return "n/a" }
                var sum = 0
                for i in 0..<min(image.width * image.height, decoded.width * decoded.height) {
                    for c in 0..<3 { sum += abs(Int(decoded.rgb[i * 3 + c]) - Int(image.pixels[i * 4 + c])) }
                }
                total += Double(sum) / Double(image.width * image.height * 3)
            }
            return String(format: "%.2f", total / Double(images.count))
        }
        print("\nsixel fidelity (mean |decoded − source| per channel, libsixel decoder): ours \(meanDifference(ours)), img2sixel \(meanDifference(perFile))")
    }

    static func row(_ name: String, _ times: [Double], _ bytes: Int) {
        let sorted = times.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        print("| \(name) | \(String(format: "%.2f", median)) | \(String(format: "%.2f", sorted.first ?? 0)) | \(bytes) |")
    }

    static func measure(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Photo-like pixels: gradients, a soft disc and deterministic noise.
    static func photo(width: Int, height: Int, seed: UInt64) -> Image {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let (cx, cy) = (Double(width) * (0.3 + 0.05 * Double(seed % 8)), Double(height) * 0.5)
        let hue = Double(seed % 5) * 40
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Double(Int(state >> 59) - 16) * 0.8
                let fx = Double(x) / Double(width - 1), fy = Double(y) / Double(height - 1)
                let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                let disc = max(0, 1 - d / (Double(height) * 0.45))
                let i = (y * width + x) * 4
                pixels[i] = clamp(30 + hue + 150 * fx + 40 * disc + noise)
                pixels[i + 1] = clamp(50 + 140 * fy + 70 * disc + noise)
                pixels[i + 2] = clamp(210 - hue - 150 * fx * fy + 20 * disc + noise)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}
