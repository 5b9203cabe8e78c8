import Foundation
import Testing
import TestSupport

/// A 10⁶-line list opens, pages to its end, and stays within a memory bound (measured from /proc).
@Suite(.endToEnd, EndToEnd.needs(.tmux))
struct LargeListGalleryTests {
    /// Peak resident memory allowed for the whole gallery process (a debug build) with a 10⁶-line,
    /// 40 MB list. The old loader peaked at 740–760 MB on such a list.
    static let peakLimitKB = 120 * 1024

    @Test(.timeLimit(.minutes(2)))
    func aMillionLineListOpensAndPagesToTheEndInBoundedMemory() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-large")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("million.txt")
        try await Blocking.run {
            var data = Data(capacity: 42_000_000)
            data.append(contentsOf: "# a million missing files\n".utf8)
            for number in 1...1_000_000 { data.append(contentsOf: "gone/\(number).png n\(number)\n".utf8) }
            try data.write(to: list)
        }
        let pidFile = dir.appendingPathComponent("pid")
        let command = "cd \(dir.path) && TERM=tmux-256color XDG_CACHE_HOME=\(EndToEnd.cacheHome) sh -c 'echo $$ > pid; exec \(EndToEnd.binary.path) --renderer blocks million.txt'; echo SDG-EXIT=$?; sleep 30"
        let tmux = try await TmuxSession.start(columns: 100, rows: 30, command: command)
        let first = await tmux.wait(timeout: 20) { $0.contains("n2") && $0.contains(" 1/1000000 ") }
        #expect(first.ok, "no first screen: \(first.screen)")
        let pid = try #require(Int32(String(decoding: try Data(contentsOf: pidFile), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))

        await tmux.send("G")
        let end = await tmux.wait(timeout: 20) { $0.contains("1000000/1000000") && $0.contains("n1000000") }
        #expect(end.ok, "G did not reach the end: \(end.screen)")
        #expect(await tmux.wait { $0.contains("not found") || $0.contains("No such file") }.ok, "the last screen was not loaded")
        await tmux.send("PPage")
        #expect(await tmux.wait { !$0.contains("1000000/1000000") && $0.contains("/1000000 · grid") && $0.contains("n9999") }.ok, "PgUp at the end")
        await tmux.send("g")
        #expect(await tmux.wait { $0.contains(" 1/1000000 ") && $0.contains("n2") }.ok, "g did not return to the start")

        let peak = try Self.peakResidentKB(of: pid)
        // Sanitizer runtimes (shadow memory, quarantine) inflate RSS: the bound is for the real binary.
        let limit = Sanitizers.address || Sanitizers.thread ? Self.peakLimitKB * 3 : Self.peakLimitKB
        #expect(peak < limit, "peak RSS \(peak / 1024) MB")
        await tmux.send("q")
        let exit = await tmux.wait(timeout: 60) { $0.contains("SDG-EXIT=") }
        #expect(exit.screen.contains("SDG-EXIT=0"), "\(exit.screen.split(separator: "\n").suffix(12).joined(separator: "\n"))")
    }

    /// VmHWM (peak resident set) of `pid`, in KB.
    static func peakResidentKB(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw TmuxError(message: "no VmHWM in /proc/\(pid)/status")
        }
        return kb
    }
}
