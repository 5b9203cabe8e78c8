import Foundation
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

    var markdownRow: String { "| \(name) | \(figure) | \(target) | \(met.map { $0 ? "met" : "**missed**" } ?? "not measured") |" }
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

/// Runs a program to completion and returns its standard output (standard error discarded), nil when
/// it could not start or exited non-zero. posix_spawn + waitpid, not Foundation's `Process`: a program
/// that leaves a daemon behind (`tmux new-session`) keeps `Process`'s exit monitor open forever.
func runTool(_ path: String, _ arguments: [String], captureOutput: Bool = true) -> String? {
    var fds: [Int32] = [-1, -1]
    if captureOutput {
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if captureOutput { posix_spawn_file_actions_adddup2(&actions, fds[1], 1) } else { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp) == 0
    if captureOutput { close(fds[1]) }
    var output = [UInt8]()
    if captureOutput {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while spawned {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 { output += buffer[0..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        close(fds[0])
    }
    guard spawned else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status == 0 ? String(decoding: output, as: UTF8.self) : nil
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double { PtyRunner.now() }
