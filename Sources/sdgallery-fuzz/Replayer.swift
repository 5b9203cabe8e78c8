import Foundation
import FuzzTargets

/// Replays files through a target without libFuzzer (any build): prints each input's report,
/// checks that nothing was written to stdout or stderr while the target ran (C libraries must stay
/// silent), and returns 1 when any input broke an invariant.
struct Replayer {
    let target: FuzzTarget
    let quiet: Bool

    func replay(_ paths: [String]) -> Int32 {
        let files = paths.flatMap(Self.files(under:))
        var failures = 0
        let trap = OutputTrap()
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                print("\(file): cannot read")
                failures += 1
                continue
            }
            let started = DispatchTime.now()
            let (report, output) = trap.capture { target.run(data) }
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
            var problems = report.problems
            if !output.isEmpty {
                problems.append("wrote \(output.count) bytes to stdout/stderr: \(String(decoding: output.prefix(120), as: UTF8.self).debugDescription)")
            }
            if !problems.isEmpty { failures += 1 }
            if !quiet || !problems.isEmpty {
                print("\(file) (\(String(format: "%.1f", ms)) ms): \(report.steps.joined(separator: "; "))")
                for problem in problems { print("  PROBLEM: \(problem)") }
            }
        }
        print("\(target.rawValue): \(files.count) inputs, \(failures) with problems")
        return failures == 0 && !files.isEmpty ? 0 : 1
    }

    /// `path` itself, or every regular file below it (sorted).
    static func files(under path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            var dir: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue { files.append(full) }
        }
        return files.sorted()
    }
}

/// Points file descriptors 1 and 2 at a temporary file while a closure runs and returns what was
/// written there.
final class OutputTrap {
    private let fd: Int32

    init() {
        var template = Array((NSTemporaryDirectory() + "/sdgallery-fuzz-output-XXXXXX").utf8CString)
        fd = mkstemp(&template)
        if fd >= 0 { unlink(template) }
    }

    deinit { if fd >= 0 { close(fd) } }

    func capture<T>(_ body: () -> T) -> (T, Data) {
        guard fd >= 0 else { return (body(), Data()) }
        fflush(nil)  // every C stream, stdout and stderr included
        _ = ftruncate(fd, 0)
        _ = lseek(fd, 0, SEEK_SET)
        let savedOut = dup(1), savedErr = dup(2)
        dup2(fd, 1)
        dup2(fd, 2)
        let result = body()
        fflush(nil)
        dup2(savedOut, 1)
        dup2(savedErr, 2)
        close(savedOut)
        close(savedErr)
        let size = lseek(fd, 0, SEEK_END)
        var bytes = [UInt8](repeating: 0, count: max(0, Int(size)))
        if size > 0 { _ = pread(fd, &bytes, bytes.count, 0) }
        return (result, Data(bytes))
    }
}
