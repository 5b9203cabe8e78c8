import Foundation
import Testing
@testable import TerminalGraphics
import ImageCodecs
import Locking

#if canImport(Glibc)
import Glibc
#endif

@Suite struct TmuxClientTests {
    static let tmux = "/usr/bin/tmux"

    /// A real tmux server says whether its pane lets passthrough out (inherited from the global
    /// option, as `set -g allow-passthrough on` sets it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tmux), "tmux is not installed"))
    func tmuxSaysWhetherPassthroughIsOn() throws {
        let name = "sdg-passthrough-\(getpid())"
        func tmux(_ arguments: [String]) -> String? { TmuxClient.run([Self.tmux, "-L", name] + arguments, path: nil) }
        // The server outlives its client: started with its output on /dev/null (a pipe would stay open).
        let start = "\(Self.tmux) -L \(name) -f /dev/null new-session -d -x 80 -y 24 'sleep 60' >/dev/null 2>&1"
        #expect(TmuxClient.run(["/bin/sh", "-c", start], path: nil) != nil)
        defer { _ = tmux(["kill-server"]) }
        let answer = try #require(tmux(["display-message", "-p", "#{socket_path} #{pane_id}"]))
        let parts = answer.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(parts.count == 2)
        let environment = ["TMUX": "\(parts[0]),1,0", "TMUX_PANE": parts[1], "PATH": "/usr/bin:/bin"]
        // A detached session has no client: no features, no name.
        let client = try #require(TmuxClient.ask(environment: environment))
        #expect(client.passthrough == false && !client.drawsSixel)
        // The probe asks tmux before it writes, and stops at tmux's DA1 since tmux says off.
        let (result, asked) = try Self.probeInTmux { $0.tmuxEnvironment = environment }
        #expect(result.status == .answered && result.tmuxClient?.passthrough == false)
        #expect(result.elapsedMilliseconds < 5_000, "waited \(result.elapsedMilliseconds) ms for a passthrough reply")
        #expect(!asked.contains("tmux;"), "a wrapped query was sent")
        #expect(tmux(["set-option", "-g", "allow-passthrough", "on"]) != nil)
        #expect(TmuxClient.ask(environment: environment)?.passthrough == true)
        // `set -p` switches it for the one pane.
        #expect(tmux(["set-option", "-g", "allow-passthrough", "off"]) != nil)
        #expect(TmuxClient.switchPassthroughOn(environment: environment))
        #expect(TmuxClient.ask(environment: environment)?.passthrough == true)
        #expect(tmux(["show-options", "-gv", "allow-passthrough"])?.hasPrefix("off") == true)
        // Not inside tmux, or a server that is gone: unknown.
        #expect(TmuxClient.ask(environment: ["PATH": "/usr/bin:/bin"]) == nil)
        #expect(TmuxClient.ask(environment: ["TMUX": "/nonexistent/socket,1,0", "TMUX_PANE": "%0"]) == nil)
    }

    /// Inside tmux with `allow-passthrough` off, the probe sends no wrapped query and stops at tmux's
    /// DA1 reply: before, it waited the whole grace for an outer reply that cannot come.
    @Test func withPassthroughOffTheProbeStopsAtTmuxsReply() throws {
        let (result, asked) = try Self.probeInTmux { $0.tmuxClient = TmuxClient(passthrough: false) }
        #expect(result.status == .answered)
        #expect(result.elapsedMilliseconds < 5_000, "waited \(result.elapsedMilliseconds) ms for a passthrough reply")
        #expect(!asked.contains("tmux;"), "a wrapped query was sent")
    }

    /// What tmux prints for `show-options -Apv … ; display -p '#{client_termfeatures}|#{client_termtype}'`,
    /// as tmux 3.5a printed it in kitty 0.41 and xterm here.
    @Test func theClientIsReadFromTmuxsOutput() {
        let kitty = TmuxClient(output: "off\nbpaste,ccolour,clipboard,cstyle,focus,title|kitty(0.41.1)\n")
        #expect(kitty == TmuxClient(passthrough: false, features: ["bpaste", "ccolour", "clipboard", "cstyle", "focus", "title"],
                                    terminalType: "kitty(0.41.1)"))
        let xterm = TmuxClient(output: "on\n256,bpaste,mouse,RGB,sixel,title|XTerm(379)\n")
        #expect(xterm?.passthrough == true && xterm?.drawsSixel == true && xterm?.terminalType == "XTerm(379)")
        #expect(TmuxClient(output: "all\n|\n")?.passthrough == true)
        #expect(TmuxClient(output: "all\n|\n")?.terminalType == nil)
        // A hostile outer terminal's name is sanitized and capped.
        let hostile = TmuxClient(output: "off\nsixel|x\u{1B}]0;pwned\u{07}y" + String(repeating: "z", count: 500))
        #expect(hostile?.terminalType?.hasPrefix("xy") == true && (hostile?.terminalType?.count ?? 0) <= 64)
        #expect(TmuxClient(output: "") == nil)
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
