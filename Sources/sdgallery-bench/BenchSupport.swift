import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the end-to-end benchmarks (`sheet`, `scroll`, `memory`, `keys`, `suite`) share: the binary
/// under test, the image folders `scripts/bench` made, the number of runs, a scratch folder.
struct BenchContext {
    /// The release `sdgallery` binary.
    var sdgallery: String
    /// Folder with `baseline/`, `progressive/` (16 × 12 MP JPEGs each) and `web/` (the same at 1600×1200).
    var images: URL
    /// `--quick`: fewer runs, shorter walks.
    var quick: Bool
    /// Runs per measurement (≥ 5 unless quick).
    var runs: Int
    /// Temporary files (cache folders, lists), removed at the end.
    var scratch: URL

    static func from(_ arguments: [String]) -> BenchContext? {
        let quick = Arguments.flag("--quick", in: arguments)
        let binary = Arguments.string("--sdgallery", in: arguments)
            ?? CommandLine.arguments[0].replacingOccurrences(of: "sdgallery-bench", with: "sdgallery")
        guard let images = Arguments.string("--images", in: arguments) else {
            FileHandle.standardError.write(Data("need --images DIR (made by scripts/bench)\n".utf8))
            return nil
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return BenchContext(sdgallery: binary, images: URL(fileURLWithPath: images), quick: quick,
                            runs: Arguments.int("--runs", in: arguments) ?? (quick ? 3 : 5), scratch: scratch)
    }

    /// The JPEG files of an image folder, sorted.
    func files(_ folder: String) -> [String] {
        let dir = images.appendingPathComponent(folder)
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }

    /// A fresh folder under the scratch folder.
    func freshDirectory(_ name: String) -> URL {
        let dir = scratch.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `lines` to a list file in the scratch folder.
    func writeList(_ name: String, _ lines: [String]) -> String {
        let path = scratch.appendingPathComponent(name).path
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func cleanUp() { try? FileManager.default.removeItem(at: scratch) }

    /// A bench server over image folder `folder` at `rate` bytes/s per response (0: unthrottled), or
    /// why it could not start.
    func startServer(_ folder: String, rate: Int = 0) -> Result<BenchServer, BenchFailure> {
        guard files(folder).count == 16 else { return .failure(BenchFailure("no images in \(images.appendingPathComponent(folder).path)")) }
        do {
            return .success(try BenchServer.startBlocking(BenchServer.Config(directory: images.appendingPathComponent(folder), bytesPerSecond: rate)))
        } catch {
            return .failure(BenchFailure("server failed: \(error)"))
        }
    }
}

/// Why a benchmark part could not run.
struct BenchFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// One section of `docs/benchmarks.md` and its rows of the summary table.
struct BenchSection {
    var markdown: String
    var targets: [TargetRow]
}

/// A row of the summary table.
struct TargetRow {
    var name: String
    var figure: String
    var target: String
    /// nil when it could not be measured.
    var met: Bool?
    /// Why it could not be measured, shown in the verdict ("not measured: REASON").
    var reason: String?

    var markdownRow: String {
        "| \(name) | \(figure) | \(target) | \(met.map { $0 ? "met" : "**missed**" } ?? "not measured\(reason.map { ": " + $0 } ?? "")") |"
    }
}

enum Stats {
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func seconds(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.3f s", value) }
    static func ratio(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.2f×", value) }
    static func megabytes(_ bytes: Double) -> String { String(format: "%.1f MB", bytes / 1e6) }
    static func kilobytes(_ bytes: Double) -> String { String(format: "%.0f KB", bytes / 1e3) }
}

/// Drops files from the page cache (`posix_fadvise(DONTNEED)`; needs no root, works on clean pages).
enum PageCache {
    static func evict(_ paths: [String]) {
        for path in paths {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { continue }
            _ = fdatasync(fd)
            _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(fd)
        }
    }

    /// Every regular file below `directory`.
    static func files(below directory: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { directory.appendingPathComponent($0).path }
    }
}

extension ChildProcess {
    /// The standard output of `path` run to completion (killed after `timeout` s), nil when it could
    /// not start or exited non-zero.
    static func output(_ path: String, _ arguments: [String], timeout: Double = 300) -> String? {
        guard let result = try? run(path, arguments, timeout: timeout), result.status == 0 else { return nil }
        return result.out
    }

    /// The standard output of `path` as bytes (empty when it could not start).
    static func bytes(_ path: String, _ arguments: [String], timeout: Double = 300) -> [UInt8] {
        (try? run(path, arguments, timeout: timeout))?.output ?? []
    }
}

extension TmuxSession {
    /// The benchmarks' session: the real UI in a 160×48 pane with no status line, in this process's
    /// environment; nil when tmux failed.
    static func bench(_ command: String, columns: Int = 160, rows: Int = 48) -> TmuxSession? {
        try? startBlocking(columns: columns, rows: rows, command: command, environment: [:], statusLine: false)
    }
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double { PtyRunner.now() }
