import Foundation
import TestSupport
import Testing
@testable import TerminalGraphics

#if canImport(Glibc)
import Glibc
#endif

/// Sends `TerminalProbe.query` to real terminals (xterm -ti vt340 under Xvfb, tmux) from a shell
/// inside them, records the raw replies and checks that the parser reads them as expected.
@Suite struct LiveTerminalReplyTests {
    /// Writes the query and a script that sends it from inside a terminal and records 1 s of replies.
    func prepare(_ label: String) throws -> (dir: URL, script: String, reply: URL) {
        let dir = try Fixtures.temporaryDirectory(label)
        try Data(TerminalProbe.query(includeBackground: true)).write(to: dir.appendingPathComponent("query.bin"))
        let script = dir.appendingPathComponent("ask.sh")
        try """
            #!/bin/sh
            stty raw -echo
            cat '\(dir.path)/query.bin'
            timeout --foreground 1 cat > '\(dir.path)/reply.bin'
            touch '\(dir.path)/done'
            """.write(to: script, atomically: true, encoding: .utf8)
        return (dir, script.path, dir.appendingPathComponent("reply.bin"))
    }

    @Test(
        .enabled(if: XtermHarness.available, "skipped: needs xvfb-run, xterm, import, timeout and /usr/bin/convert"),
        .timeLimit(.minutes(1)))
    func xtermVT340Replies() async throws {
        let (dir, script, reply) = try prepare("sdgallery-live-xterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let runner = dir.appendingPathComponent("run.sh")
        try """
            #!/bin/sh
            xterm -ti vt340 -xrm 'XTerm*decTerminalID: vt340' -fa Monospace -fs 10 -geometry 80x24+0+0 -e sh '\(script)' &
            X=$!
            i=0; while [ ! -f '\(dir.path)/done' ] && [ $i -lt 80 ]; do sleep 0.1; i=$((i+1)); done
            kill $X
            """.write(to: runner, atomically: true, encoding: .utf8)
        _ = try await XtermHarness.run(["timeout", "15", "xvfb-run", "-a", "-n", XtermHarness.randomServerNumber(), "-s", "-screen 0 800x600x24", "sh", runner.path], timeout: 16)
        let bytes = try [UInt8](Data(contentsOf: reply))
        let replies = ProbeReplyParser.parse(bytes)
        #expect(replies.sawDeviceAttributes, "raw reply: \(bytes)")
        #expect(replies.supportsSixel)
        #expect(replies.terminalVersion?.hasPrefix("XTerm(") == true)
        #expect(replies.backgroundColor != nil)
        let caps = TerminalCapabilities.resolve(
            probe: ProbeResult(status: .answered, replies: replies), environment: ["TERM": "xterm"])
        #expect(caps.graphics == .sixel && RendererSelection.choose(for: caps).kind == .sixel)
    }

    @Test(.enabled(if: XtermHarness.which("tmux") != nil, "skipped: needs tmux"), .timeLimit(.minutes(1)))
    func tmuxReplies() async throws {
        let (dir, script, reply) = try prepare("sdgallery-live-tmux")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = "sdg-graphics-\(UUID().uuidString.prefix(8))"
        _ = try await XtermHarness.run(
            ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sh '\(script)'"],
            timeout: 5)
        defer {
            _ = try? XtermHarness.run(["tmux", "-L", socket, "kill-server"], timeout: 5)
            let tmpdir = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            try? FileManager.default.removeItem(atPath: "\(tmpdir)/tmux-\(getuid())/\(socket)")
        }
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("done").path) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let bytes = try [UInt8](Data(contentsOf: reply))
        let replies = ProbeReplyParser.parse(bytes)
        #expect(replies.sawDeviceAttributes, "raw reply: \(bytes)")
        #expect(replies.terminalVersion?.hasPrefix("tmux ") == true)
        let caps = TerminalCapabilities.resolve(
            probe: ProbeResult(status: .answered, replies: replies), environment: ["TERM": "tmux-256color"])
        #expect(caps.inTmux)
        #expect(RendererSelection.choose(for: caps).kind == .halfBlock(.color256))
    }
}
