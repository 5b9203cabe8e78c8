import Foundation
import TestSupport
import Testing
@testable import TerminalGraphics


/// Sends `TerminalProbe.query` to real terminals (xterm -ti vt340 under Xvfb, tmux) from a shell
/// inside them, records the raw replies and checks that the parser reads them as expected.
@Suite(.endToEnd) struct LiveTerminalReplyTests {
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

    @Test(.enabled(if: GraphicalTerminal.missingTools(for: .xterm) == nil, "xterm, Xvfb, xdotool or ImageMagick missing"),
          .timeLimit(.minutes(2)))
    func xtermVT340Replies() async throws {
        let (dir, script, reply) = try prepare("sdgallery-live-xterm")
        defer { try? FileManager.default.removeItem(at: dir) }
        let done = dir.appendingPathComponent("done").path
        let answered = try await Blocking.run {
            let terminal = try GraphicalTerminal(kind: .xterm, command: "sh '\(script)'; sleep 30", directory: dir.path, size: (80, 24))
            defer { terminal.stop() }
            return GraphicalTerminal.waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: done) }
        }
        #expect(answered, "the script in xterm did not finish")
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

    @Test(.enabled(if: TmuxSession.installed, "skipped: needs tmux"), .timeLimit(.minutes(1)))
    func tmuxReplies() async throws {
        let (dir, script, reply) = try prepare("sdgallery-live-tmux")
        defer { try? FileManager.default.removeItem(at: dir) }
        let done = dir.appendingPathComponent("done").path
        let tmux = try await TmuxSession.start(columns: 80, rows: 24, command: "sh '\(script)'; sleep 30")
        let answered = try await Blocking.run { GraphicalTerminal.waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: done) } }
        #expect(answered, "the script in tmux did not finish")
        _ = tmux
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
