import Foundation
import TestSupport
import Gallery

/// `sdgallery-bench list --sdgallery BIN [--baseline OLD] [--sizes 10000,100000,1000000,10000000]`:
/// lists of N lines (`gone/K.png tK`, missing local files: no network, every cell fails at once)
/// opened by the real UI in tmux (160×48). Per size and binary: time from starting tmux to the
/// first frame (status bar `1/N`), VmRSS then, time from sending `G` to the status bar showing
/// `N/N`; then the `/` filter: `/`, then `1` typed — time until the prompt shows the `1`, time until
/// its count is final (no "…"), VmRSS then; and VmHWM (peak RSS) before quitting. Both binaries run on the same file, one after the other.
enum ListBench {
    struct Row {
        var firstFrame = Double.nan, rssMB = Double.nan, endKey = Double.nan, peakMB = Double.nan, note = ""
        var filterKey = Double.nan, filterDone = Double.nan, filterRSS = Double.nan
    }

    static func run(_ arguments: [String]) {
        guard let binary = Arguments.string("--sdgallery", in: arguments) else {
            print("usage: sdgallery-bench list --sdgallery BIN [--baseline OLD] [--sizes 10000,100000,1000000,10000000]")
            return
        }
        let baseline = Arguments.string("--baseline", in: arguments)
        let sizes = (Arguments.string("--sizes", in: arguments) ?? "10000,100000,1000000,10000000")
            .split(separator: ",").compactMap { Int($0) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sdgallery-listbench-\(getpid())")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        print("| lines | list size | binary | first frame | RSS at first frame | G (to the end) | / key shown | filter done | RSS after filter | peak RSS | note |")
        print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for size in sizes {
            let path = scratch.appendingPathComponent("list-\(size).txt").path
            guard let bytes = writeList(path: path, count: size) else { print("| \(size) | - | - | cannot write the list |"); continue }
            let runs = [("after", binary)] + (baseline.map { [("before", $0)] } ?? [])
            for (label, program) in runs {
                let row = measure(program: program, list: path, count: size, scratch: scratch)
                print("| \(size) | \(bytes >> 20) MB | \(label) | \(seconds(row.firstFrame)) | \(megabytes(row.rssMB)) | \(seconds(row.endKey)) | \(seconds(row.filterKey)) | \(seconds(row.filterDone)) | \(megabytes(row.filterRSS)) | \(megabytes(row.peakMB)) | \(row.note) |")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Writes `count` lines and returns the file's size.
    static func writeList(path: String, count: Int) -> Int? {
        guard let handle = FileHandle(forWritingAtPath: path) ?? { _ = FileManager.default.createFile(atPath: path, contents: nil); return FileHandle(forWritingAtPath: path) }() else { return nil }
        defer { try? handle.close() }
        var chunk = Data(capacity: 1 << 20)
        var total = 0
        for number in 1...count {
            chunk.append(contentsOf: "gone/\(number).png t\(number)\n".utf8)
            if chunk.count >= 1 << 20 || number == count {
                handle.write(chunk)
                total += chunk.count
                chunk.removeAll(keepingCapacity: true)
            }
        }
        return total
    }

    static func measure(program: String, list: String, count: Int, scratch: URL) -> Row {
        var row = Row()
        let start = monotonicNow()
        let errors = scratch.appendingPathComponent("stderr.txt").path
        guard let tmux = TmuxSession.bench("exec \(program) --renderer blocks \(list) 2>\(errors)") else {
            row.note = "tmux failed"
            return row
        }
        defer { tmux.close() }
        let pid = tmux.pid
        let total = "/\(count) · "
        guard let first = waitFor(tmux, timeout: 120, { $0.contains(" 1\(total)") }) else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            row.note = TerminalText.fit(TerminalText.sanitize(said.split(separator: "\n").first ?? "no first frame"), width: 70)
            return row
        }
        row.firstFrame = first - start
        row.rssMB = pid.flatMap { memoryKB(pid: $0, field: "VmRSS:") }.map { Double($0) / 1024 } ?? .nan
        let keyStart = monotonicNow()
        tmux.send("G")
        if let end = waitFor(tmux, timeout: 120, { $0.contains(" \(count)\(total)") }) { row.endKey = end - keyStart }
        measureFilter(tmux, count: count, row: &row)
        row.peakMB = pid.flatMap { memoryKB(pid: $0, field: "VmHWM:") }.map { Double($0) / 1024 } ?? .nan
        tmux.send("q")
        tmux.waitForExit(timeout: 10)
        return row
    }

    /// `/` then `1`: when the `1` shows in the prompt, and when its count is final ("/1▏ 3439 of").
    static func measureFilter(_ tmux: TmuxSession, count: Int, row: inout Row) {
        tmux.send("/")
        guard waitFor(tmux, timeout: 30, { $0.contains("/▏") }) != nil else { return }
        let start = monotonicNow()
        tmux.send("1")
        if let shown = waitFor(tmux, timeout: 120, { $0.contains("/1▏") }) { row.filterKey = shown - start }
        let settled = waitFor(tmux, timeout: 300) { screen in
            guard let prompt = screen.range(of: "/1▏ ") else { return false }
            let rest = screen[prompt.upperBound...]
            let digits = rest.prefix { $0.isNumber }
            return !digits.isEmpty && rest.dropFirst(digits.count).hasPrefix(" of \(count)")
        }
        if let settled { row.filterDone = settled - start }
        row.filterRSS = tmux.pid.flatMap { memoryKB(pid: $0, field: "VmRSS:") }.map { Double($0) / 1024 } ?? .nan
        tmux.send("Escape")
        _ = waitFor(tmux, timeout: 30) { !$0.contains("/1▏") }
    }

    /// Polls the pane until `condition` holds; the time it first held, nil after `timeout` seconds.
    static func waitFor(_ tmux: TmuxSession, timeout: Double, _ condition: (String) -> Bool) -> Double? {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if condition(tmux.capture()) { return monotonicNow() }
            usleep(2_000)
        }
        return nil
    }

    /// A `kB` field of /proc/PID/status.
    static func memoryKB(pid: Int32, field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func seconds(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.0f ms", value * 1000) }
    static func megabytes(_ value: Double) -> String { value.isNaN ? "-" : String(format: "%.0f MB", value) }
}
