import Foundation
import Testing
@testable import TerminalGraphics
import ImageCodecs
import Locking

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TmuxPassthroughSettingTests {
    static let tmux = "/usr/bin/tmux"

    /// A real tmux server says whether its pane lets passthrough out (inherited from the global
    /// option, as `set -g allow-passthrough on` sets it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tmux), "tmux is not installed"))
    func tmuxSaysWhetherPassthroughIsOn() throws {
        let name = "sdg-passthrough-\(getpid())"
        func tmux(_ arguments: [String]) -> String? { TmuxPassthroughSetting.run([Self.tmux, "-L", name] + arguments, path: nil) }
        // The server outlives its client: started with its output on /dev/null (a pipe would stay open).
        let start = "\(Self.tmux) -L \(name) -f /dev/null new-session -d -x 80 -y 24 'sleep 60' >/dev/null 2>&1"
        #expect(TmuxPassthroughSetting.run(["/bin/sh", "-c", start], path: nil) != nil)
        defer { _ = tmux(["kill-server"]) }
        let answer = try #require(tmux(["display-message", "-p", "#{socket_path} #{pane_id}"]))
        let parts = answer.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(parts.count == 2)
        let environment = ["TMUX": "\(parts[0]),1,0", "TMUX_PANE": parts[1], "PATH": "/usr/bin:/bin"]
        #expect(TmuxPassthroughSetting.allowed(environment: environment) == false)
        // The probe asks tmux while the replies arrive, and stops at tmux's DA1 once tmux says off.
        let (result, _) = try Self.probeInTmux { $0.tmuxEnvironment = environment }
        #expect(result.status == .answered)
        #expect(result.elapsedMilliseconds < 5_000, "waited \(result.elapsedMilliseconds) ms for a passthrough reply")
        #expect(tmux(["set-option", "-g", "allow-passthrough", "on"]) != nil)
        #expect(TmuxPassthroughSetting.allowed(environment: environment) == true)
        // Not inside tmux, or a server that is gone: unknown.
        #expect(TmuxPassthroughSetting.allowed(environment: ["PATH": "/usr/bin:/bin"]) == nil)
        #expect(TmuxPassthroughSetting.allowed(environment: ["TMUX": "/nonexistent/socket,1,0", "TMUX_PANE": "%0"]) == nil)
    }

    /// Inside tmux with `allow-passthrough` off, the probe sends no wrapped query and stops at tmux's
    /// DA1 reply: before, it waited the whole grace for an outer reply that cannot come.
    @Test func withPassthroughOffTheProbeStopsAtTmuxsReply() throws {
        let (result, asked) = try Self.probeInTmux { $0.tmuxPassthroughAllowed = false }
        #expect(result.status == .answered)
        #expect(result.elapsedMilliseconds < 5_000, "waited \(result.elapsedMilliseconds) ms for a passthrough reply")
        #expect(!asked.contains("tmux;"), "a wrapped query was sent")
    }

    /// A probe configured by `configure`, inside "tmux" (a pty answering DA1 as tmux does, and nothing
    /// through passthrough), with a 10 s grace for the outer terminal's reply; and what it asked.
    static func probeInTmux(_ configure: (inout TerminalProbe) -> Void) throws -> (ProbeResult, String) {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let master = pty.master
        let asked = Locked<[UInt8]>([])
        let terminal = Thread {
            var seen: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline && !String(decoding: seen, as: UTF8.self).hasSuffix("\u{1B}[c") {
                seen += PseudoTerminal.read(master, count: 1)
            }
            asked.withLock { $0 = seen }
            _ = Array("\u{1B}[?65;1;9c".utf8).withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        }
        terminal.start()
        var probe = TerminalProbe(input: pty.slave, output: pty.slave, timeoutMilliseconds: 20_000, queryBackground: false)
        probe.multiplexer = .tmux
        probe.passthroughGraceMilliseconds = 10_000
        configure(&probe)
        let result = probe.run()
        return (result, String(decoding: asked.withLock { $0 }, as: UTF8.self))
    }
}
