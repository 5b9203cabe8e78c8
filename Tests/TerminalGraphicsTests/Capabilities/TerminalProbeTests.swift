import Foundation
import Testing
@testable import TerminalGraphics

#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs

/// A pseudo-terminal pair: the probe talks to `slave` as to a real tty; the test plays the terminal
/// on `master`.
struct PseudoTerminal {
    let master: Int32
    let slave: Int32

    init() throws {
        // posix_openpt/grantpt/unlockpt are hidden from Swift; do what they do on Linux.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.ENODEV) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0, ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0 else {
            _ = Glibc.close(master)
            throw POSIXError(.ENODEV)
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENODEV) }
        self.master = master
        self.slave = slave
    }

    func close() {
        _ = Glibc.close(slave)
        _ = Glibc.close(master)
    }

    /// Plays the terminal on a thread of its own: reads the `count` bytes of the probe's query, then
    /// writes all of `reply` (8 KB at a time: a pty takes a few KB before its reader reads).
    func answer(_ reply: [UInt8], toQueryOf count: Int) {
        let master = self.master
        Thread {
            guard !PseudoTerminal.read(master, count: count).isEmpty else { return }
            var offset = 0
            while offset < reply.count {
                let n = reply[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, min($0.count, 8192)) }
                if n <= 0 { break }
                offset += n
            }
        }.start()
    }

    /// Reads what the probe wrote (up to `count` bytes, waiting at most 1 s).
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(1)
        while out.count < count && Date() < deadline {
            var fds = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, 100) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }
}

@Suite struct TerminalProbeTests {
    @Test func silentTerminalTimesOutWellUnder300ms() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let start = Date()
        let result = TerminalProbe(input: pty.slave, output: pty.slave, timeoutMilliseconds: 120).run()
        let elapsed = Date().timeIntervalSince(start)
        #expect(result.status == .timedOut)
        #expect(!result.replies.sawDeviceAttributes)
        #expect(elapsed < 0.3)
        #expect(elapsed >= 0.1)
        // The whole query went out in one piece, DA1 last.
        let written = PseudoTerminal.read(pty.master, count: TerminalProbe.query(includeBackground: true).count)
        #expect(written == TerminalProbe.query(includeBackground: true))
        #expect(written.suffix(3) == Array("\u{1B}[c".utf8))
    }

    @Test func answeringTerminalStopsAtDA1() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        pty.answer(Array(CannedReplies.foot.utf8), toQueryOf: TerminalProbe.query(includeBackground: false).count)
        let start = Date()
        let result = TerminalProbe(input: pty.slave, output: pty.slave, timeoutMilliseconds: 2000, queryBackground: false).run()
        #expect(result.status == .answered)
        #expect(Date().timeIntervalSince(start) < 1.5)
        #expect(result.replies.terminalVersion == "foot(1.16.2)")
        #expect(result.replies.supportsSixel)
    }

    /// A reply the probe is inside of when it ends (here a 1 MB OSC 11 reply, past the 64 KB it
    /// keeps) is read to its end and dropped: nothing of it is left for the gallery to read as keys.
    @Test func theProbeNeverStopsInsideAReply() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let reply = Array("\u{1B}]11;rgb:".utf8) + [UInt8](repeating: UInt8(ascii: "q"), count: 1 << 20) + Array("\u{1B}\\\u{1B}[?62;4c".utf8)
        pty.answer(reply, toQueryOf: TerminalProbe.query(includeBackground: true).count)
        let result = TerminalProbe(input: pty.slave, output: pty.slave, timeoutMilliseconds: 2000).run()
        #expect(result.status == .failed)  // more than 64 KB of replies
        // What the gallery would read next: at most the DA1 after the reply, no letter of it.
        #expect(fcntl(pty.slave, F_SETFL, O_NONBLOCK) == 0)
        var left: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(0.5)
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(pty.slave, $0.baseAddress, $0.count) }
            if n > 0 { left += buffer[0..<n] } else { usleep(10_000) }
        }
        var tokenizer = VTTokenizer()
        let tokens = tokenizer.feed(left)
        #expect(!tokens.contains { if case .text = $0 { return true } else { return false } }, "\(left.count) bytes left, keys among them")
    }

    @Test func pipeIsNotProbed() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { _ = Glibc.close(fds[0]); _ = Glibc.close(fds[1]) }
        let start = Date()
        let result = TerminalProbe(input: fds[0], output: fds[1]).run()
        #expect(result.status == .notATerminal)
        #expect(Date().timeIntervalSince(start) < 0.05)
        var byte: UInt8 = 0
        #expect(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
        #expect(Glibc.read(fds[0], &byte, 1) == -1)  // nothing was written
    }

    @Test func windowSizeSanity() {
        #expect(TerminalProbe.sane(columns: 80, rows: 24, xPixels: 800, yPixels: 480) == PixelSize(width: 10, height: 20))
        #expect(TerminalProbe.sane(columns: 80, rows: 24, xPixels: 0, yPixels: 0) == nil)
        #expect(TerminalProbe.sane(columns: 80, rows: 24, xPixels: 80, yPixels: 24) == nil)
    }

    /// A VTE-like terminal: no pixels in TIOCGWINSZ, no answer to CSI 16t; CSI 14t (the window in
    /// pixels) answered. The cell is the window divided by the cells: 720×504 over 80×24 is 9×21.
    @Test func aTerminalAnsweringOnlyCSI14tGetsItsRealCellSize() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.slave, UInt(TIOCSWINSZ), &size) == 0)
        let master = pty.master
        let terminal = Thread {
            var asked: [UInt8] = []
            let deadline = Date().addingTimeInterval(2)
            while Date() < deadline && !String(decoding: asked, as: UTF8.self).hasSuffix("\u{1B}[c") {
                asked += PseudoTerminal.read(master, count: 1)
            }
            var reply = String(decoding: asked, as: UTF8.self).contains("\u{1B}[14t") ? "\u{1B}[4;504;720t" : ""
            reply += "\u{1B}[?65;1;9c"
            _ = Array(reply.utf8).withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        }
        terminal.start()
        let caps = TerminalCapabilities.detect(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm-256color"],
                                               timeoutMilliseconds: 2000, queryBackground: false)
        #expect(caps.probeStatus == .answered)
        #expect(caps.cellPixelSize == PixelSize(width: 9, height: 21))
        #expect(caps.description.contains("cell size:           9×21 (CSI 14 t"), "\(caps.description)")
    }
}
