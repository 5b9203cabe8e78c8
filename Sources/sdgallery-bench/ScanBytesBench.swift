import Foundation
import ImageCodecs
import Gallery
import TestSupport

/// `sdgallery-bench scan-bytes --images DIR [--sdgallery BIN[,BIN…]] [--rates 1M,0] [--sets S,…] [--files]`: the
/// bytes a cold `--print` contact sheet (4 columns on a 160×48 pty of 10×20-px cells) makes the server send,
/// per file, against where the bytes its cell needs end, for each set (`--sets`, all by default):
/// - `progressive`: `jpegtran -progressive` of 12 MP photographs (libjpeg's default script);
/// - `camera`: the baseline files with a 160×120 EXIF thumbnail, made here with ImageMagick;
/// - `jxl`: the baseline files as JPEG XL (`djpeg`, then `cjxl -d 1`: VarDCT, its DC before its detail),
///   made here once;
/// - `jxl-progressive`: the same with `cjxl -d 1 --progressive_dc=1 --progressive_ac` (cjxl 0.7's `-p`
///   made the same bytes as without it), made here once;
/// at each rate (bytes a second per response; 0: unthrottled). The needed end is, for a cell of 40×24 pixels
/// (a sheet cell of 40×12 half blocks, 1×2 pixels each), `NeededBytes` for a JPEG (the DC scans of a
/// progressive file, the headers of a camera file, whose thumbnail covers it) and for a JPEG XL the
/// shortest prefix after which the decoder knows its DC is in (`IncrementalDecoding.hasSufficientBytes`,
/// libjxl's DC event). Several binaries run one after the other in the same run, for before/after figures.
/// Unthrottled on loopback the server's count includes what it pushed into the socket buffers before
/// the client stopped reading (megabytes, at no cost there): the throttled figures are the link's.
enum ScanBytesBench {
    struct Row {
        var name: String
        var size: Int
        var needed: Int
        var sent: Int
        var requests: Int
    }

    static let allSets = ["progressive", "camera", "jxl", "jxl-progressive"]

    static func run(_ arguments: [String]) {
        guard let context = BenchContext.from(arguments) else { return }
        defer { try? FileManager.default.removeItem(at: context.scratch) }
        let binaries = (Arguments.string("--sdgallery", in: arguments) ?? context.sdgallery).split(separator: ",").map(String.init)
        let rates = (Arguments.string("--rates", in: arguments) ?? "1M,0").split(separator: ",").map { $0 == "0" ? 0 : GalleryOptions.parseRate(String($0)) ?? 0 }
        let wanted = (Arguments.string("--sets", in: arguments) ?? allSets.joined(separator: ",")).split(separator: ",").map(String.init)
        let box = PixelSize(width: 40, height: 24)
        var sets: [(String, URL)] = []
        for name in wanted {
            switch name {
            case "progressive": sets.append((name, context.images.appendingPathComponent("progressive")))
            case "camera":
                if let camera = cameraSet(context) { sets.append((name, camera)) } else { print("camera set: not made (needs /usr/bin/convert)") }
            case "jxl", "jxl-progressive":
                if let folder = jxlSet(context, name) { sets.append((name, folder)) } else { print("\(name) set: not made (needs /usr/bin/djpeg and /usr/bin/cjxl)") }
            default: print("unknown set \(name) (sets: \(allSets.joined(separator: ", ")))")
            }
        }
        print("| set | rate | binary | requests | sent | of the files | needed (cells' scans/headers/DC) | sent − needed, worst file |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        for (name, folder) in sets {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".jxl") }.sorted()
            var needed: [String: (size: Int, end: Int)] = [:]
            for file in files {
                guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)) else { continue }
                needed[file] = (data.count, file.hasSuffix(".jxl") ? dcEnd(data, box: box) : neededEnd(data, box: box))
            }
            for rate in rates {
                for binary in binaries {
                    let rows = measure(context, folder: folder, files: files, needed: needed, rate: rate, binary: binary)
                    let size = rows.reduce(0) { $0 + $1.size }, sent = rows.reduce(0) { $0 + $1.sent }
                    let need = rows.reduce(0) { $0 + $1.needed }, requests = rows.reduce(0) { $0 + $1.requests }
                    let worst = rows.max { $0.sent - $0.needed < $1.sent - $1.needed }
                    print(String(format: "| %@ | %@ | %@ | %d | %.2f MB | %.1f%% | %.2f MB (%.1f%%) | %@ |", name, rate == 0 ? "unthrottled" : "\(rate / 1000) KB/s",
                                 (binary as NSString).lastPathComponent, requests, Double(sent) / 1e6, 100 * Double(sent) / Double(max(1, size)),
                                 Double(need) / 1e6, 100 * Double(need) / Double(max(1, size)),
                                 worst.map { "\($0.sent - $0.needed) B (\($0.name))" } ?? "-"))
                    if Arguments.flag("--files", in: arguments) {
                        for row in rows { print("|   \(row.name) | | | \(row.requests) | \(row.sent) B | \(100 * row.sent / max(1, row.size))% | \(row.needed) B | \(row.sent - row.needed) B |") }
                    }
                }
            }
        }
    }

    /// Where a JPEG's needed bytes end for `box` (`NeededBytes`), the whole file when it needs them all.
    static func neededEnd(_ data: Data, box: PixelSize) -> Int {
        var watch = NeededBytes(box: box)
        watch.append(data)
        if case .prefix(let count, _) = watch.verdict { return count }
        return data.count
    }

    /// The shortest prefix of a JPEG XL after which its decoder knows the image final at `box` (its
    /// DC: `hasSufficientBytes`), found in the server's 4 KB chunks, then to the byte; the whole file
    /// when that never comes.
    static func dcEnd(_ data: Data, box: PixelSize) -> Int {
        func knows(_ count: Int) -> Bool {
            let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: box))
            decoder.append(data.prefix(count))
            return decoder.hasSufficientBytes
        }
        let step = 4096
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: box))
        var fed = 0
        while fed < data.count, !decoder.hasSufficientBytes {
            let end = min(data.count, fed + step)
            decoder.append(data.subdata(in: fed..<end))
            fed = end
        }
        guard decoder.hasSufficientBytes else { return data.count }
        var low = max(0, fed - step), high = fed  // knows(high), not knows(low)
        while high - low > 1 {
            let middle = (low + high) / 2
            if knows(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// One cold sheet of `files` served from `folder` at `rate`: per file, what the server sent.
    static func measure(_ context: BenchContext, folder: URL, files: [String], needed: [String: (size: Int, end: Int)],
                        rate: Int, binary: String) -> [Row] {
        var config = BenchServer.Config(directory: folder)
        config.bytesPerSecond = rate
        guard let server = try? BenchServer.startBlocking(config) else { return [] }
        defer { server.stopBlocking() }
        let list = context.writeList("scan-bytes-\(folder.lastPathComponent).txt", files.map { "http://127.0.0.1:\(server.port)/files/\($0)" })
        let cache = context.freshDirectory("xdg")
        defer { try? FileManager.default.removeItem(at: cache) }
        var runner = PtyRunner()
        runner.environment["XDG_CACHE_HOME"] = cache.path
        _ = try? runner.run([binary, "--print", "--renderer", "blocks", "--columns", "4", list])
        // Bodies cut by the client end a little later on the server's side.
        let deadline = Date().addingTimeInterval(10)
        while server.stats.snapshot.active > 0 && Date() < deadline { usleep(50_000) }
        let paths = server.stats.snapshot.paths
        return files.map { file in
            let counts = paths["/files/\(file)"]
            return Row(name: file, size: needed[file]?.size ?? 0, needed: needed[file]?.end ?? 0, sent: counts?.bytes ?? 0, requests: counts?.requests ?? 0)
        }
    }

    /// The camera set: each baseline file with a 160×120 EXIF thumbnail (orientation 1), made once
    /// next to the other sets. Nil without ImageMagick.
    static func cameraSet(_ context: BenchContext) -> URL? {
        let folder = context.images.appendingPathComponent("camera")
        let baseline = context.images.appendingPathComponent("baseline")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: baseline.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        if ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).count == names.count, !names.isEmpty { return folder }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") else { return nil }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            let source = baseline.appendingPathComponent(name), thumb = context.scratch.appendingPathComponent("thumb-\(name)")
            guard let result = try? ChildProcess.run("/usr/bin/convert", [source.path, "-resize", "160x120!", "-quality", "85", "-strip", thumb.path], timeout: 120),
                  result.status == 0, let main = try? Data(contentsOf: source), let small = try? Data(contentsOf: thumb) else { return nil }
            try? ExifJPEG.with(main, thumbnail: small, orientation: 1).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    /// A JPEG XL set (`jxl` or `jxl-progressive`): each baseline file decoded by `djpeg` and encoded by
    /// `cjxl -d 1` (plus `--progressive_dc=1 --progressive_ac` for `jxl-progressive`), made once next to
    /// the other sets (10–50 s a file on two cores). Nil without the tools.
    static func jxlSet(_ context: BenchContext, _ name: String) -> URL? {
        let folder = context.images.appendingPathComponent(name)
        let baseline = context.images.appendingPathComponent("baseline")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: baseline.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        let made = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".jxl") }
        if made.count == names.count, !names.isEmpty { return folder }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/djpeg"), FileManager.default.isExecutableFile(atPath: "/usr/bin/cjxl") else { return nil }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let flags = name == "jxl-progressive" ? ["-d", "1", "--progressive_dc=1", "--progressive_ac"] : ["-d", "1"]
        print("\(name) set: making \(names.count) files in \(folder.path) (once)")
        for file in names {
            let target = folder.appendingPathComponent((file as NSString).deletingPathExtension + ".jxl")
            if FileManager.default.fileExists(atPath: target.path) { continue }
            let ppm = context.scratch.appendingPathComponent("jxl-source.ppm"), part = context.scratch.appendingPathComponent("jxl-part.jxl")
            defer { try? FileManager.default.removeItem(at: ppm); try? FileManager.default.removeItem(at: part) }
            guard let decoded = try? ChildProcess.run("/bin/sh", ["-c", "exec /usr/bin/djpeg -pnm \"$0\" > \"$1\"", baseline.appendingPathComponent(file).path, ppm.path], timeout: 120),
                  decoded.status == 0,
                  let encoded = try? ChildProcess.run("/usr/bin/cjxl", [ppm.path, part.path] + flags, timeout: 600), encoded.status == 0,
                  (try? FileManager.default.moveItem(at: part, to: target)) != nil else { return nil }
        }
        return folder
    }
}
