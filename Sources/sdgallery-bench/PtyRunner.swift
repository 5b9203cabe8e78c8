import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program on a pseudo-terminal that plays a 160×48 xterm with 10×20-pixel cells: the window
/// size (with pixels) is set on the pty, and the driver answers the terminal queries the program
/// writes (DA1 with sixel, DA2, XTVERSION, XTWINOPS 14t/16t/18t, cursor position, DECRQM, OSC 10/11
/// colours) at once, so no program waits out a query timeout. It counts every byte the program
/// writes and the whole-process wall time, from spawn to exit with the output drained. Echo is off
/// on the pty so replies are never counted as output.
///
/// ```swift
/// let result = try PtyRunner().run(["/usr/bin/timg", "--grid=4", "a.jpg"])
/// print(result.seconds, result.bytes)
/// ```
struct PtyRunner {
    var columns = 160
    var rows = 48
    var cellWidth = 10
    var cellHeight = 20
    /// The environment of the program. PATH, HOME, TMPDIR and the XDG base directories are taken
    /// from the bench's own environment when missing, so `XDG_CACHE_HOME=… sdgallery-bench pty …`
    /// keeps the program out of `~/.cache`.
    var environment: [String: String] = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"]
    /// Where the program's standard error goes (nil: the pty, like standard output).
    var stderrPath: String?
    /// The variables passed through from the bench's environment.
    static let inherited: Set<String> = ["PATH", "HOME", "TMPDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR"]
    /// Killed (SIGKILL) after this many seconds.
    var timeout: Double = 300
    /// Input typed at these times (seconds from the spawn), in order.
    var keys: [(at: Double, bytes: [UInt8])] = []
    /// The output bytes between these times (seconds from the spawn) are also counted apart.
    var window: (from: Double, to: Double)?

    /// What a run measured.
    struct Result {
        /// Wall time from spawn to exit, output drained.
        var seconds: Double
        /// Bytes the program wrote to the terminal.
        var bytes: Int
        /// Exit status (128 + signal when killed).
        var status: Int32
        /// The queries answered, in order of first appearance, with their counts.
        var queries: [(String, Int)]
        /// Replies written.
        var replies: Int
        /// Bytes written within `window`.
        var windowBytes = 0
        /// CPU seconds the program used (user + system).
        var cpuSeconds = 0.0
    }

    enum Failure: Error, CustomStringConvertible {
        case pty(String)
        case spawn(String, Int32)
        var description: String {
            switch self {
            case .pty(let what): return "pty: \(what) failed: \(String(cString: strerror(errno)))"
            case .spawn(let program, let code): return "cannot start \(program): \(String(cString: strerror(code)))"
            }
        }
    }

    func run(_ command: [String]) throws -> Result {
        // posix_openpt/grantpt/unlockpt are not imported into Swift: their Linux equivalents.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure.pty("open /dev/ptmx") }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30, unsigned): function-like macros
        // Swift does not import (values of the generic ioctl encoding: x86-64, arm64).
        let lockRequest: UInt = 0x4004_5431, numberRequest: UInt = 0x8004_5430
        guard ioctl(master, lockRequest, &unlock) == 0, ioctl(master, numberRequest, &number) == 0 else { throw Failure.pty("TIOCSPTLCK/TIOCGPTN") }
        let slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns),
                           ws_xpixel: UInt16(columns * cellWidth), ws_ypixel: UInt16(rows * cellHeight))
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else { throw Failure.pty("TIOCSWINSZ") }
        // Held open until the program has the pty, so that reads never see a closed slave early.
        let slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure.pty("open slave") }
        var attributes = termios()
        tcgetattr(slave, &attributes)
        attributes.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(slave, TCSANOW, &attributes)

        let start = Self.now()
        let pid = try spawn(command, slavePath: slavePath)
        close(slave)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        var parser = TerminalQueryParser(columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var bytes = 0
        var replies = 0
        var exitStatus: Int32?
        var slaveClosed = false
        var windowBytes = 0
        var cpuSeconds = 0.0
        var nextKey = 0
        while true {
            var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 1, exitStatus == nil ? (nextKey < keys.count ? 2 : 20) : 0)
            while nextKey < keys.count, Self.now() - start >= keys[nextKey].at {
                _ = keys[nextKey].bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                nextKey += 1
            }
            var readSomething = false
            while true {
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    readSomething = true
                    bytes += count
                    if let window, (window.from..<window.to).contains(Self.now() - start) { windowBytes += count }
                    let answer = parser.feed(buffer[0..<count])
                    if !answer.isEmpty {
                        replies += 1
                        _ = answer.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                    }
                    continue
                }
                if count < 0 && errno == EIO { slaveClosed = true }
                break
            }
            if exitStatus == nil {
                var status: Int32 = 0
                var usage = rusage()
                if wait4(pid, &status, WNOHANG, &usage) == pid {
                    exitStatus = Self.decode(status)
                    cpuSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
                }
                else if Self.now() - start > timeout {
                    kill(pid, SIGKILL)
                }
            } else if slaveClosed || !readSomething {
                break
            }
        }
        return Result(seconds: Self.now() - start, bytes: bytes, status: exitStatus ?? -1, queries: parser.seen, replies: replies,
                      windowBytes: windowBytes, cpuSeconds: cpuSeconds)
    }

    /// posix_spawn in a new session whose controlling terminal is the pty (stdin, stdout and, unless
    /// `stderrPath`, stderr), signals at their defaults.
    private func spawn(_ command: [String], slavePath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened after setsid (POSIX_SPAWN_SETSID) without O_NOCTTY: becomes the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        if let stderrPath {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setsigmask(&attr, &none)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc ≥ 2.26), not imported into Swift
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | setsid))

        var env = ProcessInfo.processInfo.environment.filter { Self.inherited.contains($0.key) }
        env.merge(environment) { _, new in new }
        let argv = command.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, command[0], &actions, &attr, argv, envp)
        guard code == 0 else { throw Failure.spawn(command[0], code) }
        return pid
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
