import Foundation

/// A real graphics terminal (kitty, or xterm as a VT340 with sixel) under its own Xvfb display, for
/// end-to-end graphics tests: starts both, sends keys
/// with xdotool, reads the screen with ImageMagick (`import -window root`) as a colour histogram,
/// waits for conditions with a deadline, and kills exactly what it started. (A small launcher of its
/// own until the shared Xvfb harness lands; fold the two together then.)
///
/// ```swift
/// let kitty = try GraphicsTerminal.start(.kitty, display: 62, command: "sdgallery list.txt; touch done")
/// defer { kitty.stop() }
/// let red = kitty.wait(timeout: 20) { $0.count(of: (255, 0, 0)) > 1000 }
/// ```
public final class GraphicsTerminal: Sendable {
    /// Which terminal.
    public enum Kind: Sendable {
        /// kitty 0.26 (kitty graphics; OpenGL through Mesa's llvmpipe).
        case kitty
        /// xterm as a VT340 with 256 colour registers (sixel).
        case xterm

        var path: String { self == .kitty ? "/usr/bin/kitty" : "/usr/bin/xterm" }

        func arguments(_ command: String) -> [String] {
            switch self {
            case .kitty:
                return ["-o", "initial_window_width=1500", "-o", "initial_window_height=900", "-o", "remember_window_size=no",
                        "-o", "background=#000000", "sh", "-c", command]
            case .xterm:
                return ["-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
                        "-xrm", "XTerm*allowSendEvents: true", "-bg", "black", "-fg", "white", "-geometry", "150x45+0+0",
                        "-e", "sh", "-c", command]
            }
        }
    }

    /// A screenshot reduced to how many pixels have each colour.
    public struct Histogram: Sendable {
        /// Pixel count per packed 0xRRGGBB colour.
        public var counts: [UInt32: Int]
        /// Pixels of exactly `rgb`.
        public func count(of rgb: (UInt8, UInt8, UInt8)) -> Int {
            counts[UInt32(rgb.0) << 16 | UInt32(rgb.1) << 8 | UInt32(rgb.2)] ?? 0
        }
        /// Pixels whose colour satisfies `matches`.
        public func count(where matches: ((r: UInt8, g: UInt8, b: UInt8)) -> Bool) -> Int {
            counts.reduce(0) { sum, entry in
                let rgb = (r: UInt8(entry.key >> 16 & 0xFF), g: UInt8(entry.key >> 8 & 0xFF), b: UInt8(entry.key & 0xFF))
                return matches(rgb) ? sum + entry.value : sum
            }
        }
    }

    /// The X display number.
    public let display: Int
    private let xvfb: pid_t
    private let terminal: pid_t

    /// Whether Xvfb, the terminal, xdotool and ImageMagick are installed.
    public static func available(_ kind: Kind) -> Bool {
        ["/usr/bin/Xvfb", kind.path, "/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/convert"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private init(display: Int, xvfb: pid_t, terminal: pid_t) {
        self.display = display
        self.xvfb = xvfb
        self.terminal = terminal
    }

    /// Starts Xvfb on `:display` (1600×1000, GLX for kitty's OpenGL) and the terminal running
    /// `command` through `sh -c`. Blocks until the display is up (call it off the cooperative pool).
    public static func start(_ kind: Kind, display: Int, command: String, timeout: Double = 20) throws -> GraphicsTerminal {
        let socket = "/tmp/.X11-unix/X\(display)", lock = "/tmp/.X\(display)-lock"
        // A lock whose server is gone (killed) leaves both files behind: clear them.
        if let owner = (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
           kill(owner, 0) != 0, errno == ESRCH {
            try? FileManager.default.removeItem(atPath: socket)
            try? FileManager.default.removeItem(atPath: lock)
        }
        guard !FileManager.default.fileExists(atPath: socket) else { throw Failure("display :\(display) is in use") }
        let xvfb = try spawn("/usr/bin/Xvfb", [":\(display)", "-screen", "0", "1600x1000x24", "+extension", "GLX", "-nolisten", "tcp"])
        guard waitFor(timeout: timeout, { FileManager.default.fileExists(atPath: socket) }) else {
            kill(xvfb, SIGKILL)
            _ = reap(xvfb, timeout: 5)
            throw Failure("Xvfb :\(display) did not start")
        }
        let environment = ["DISPLAY=:\(display)", "LIBGL_ALWAYS_SOFTWARE=1", "HOME=\(NSTemporaryDirectory())",
                           "PATH=/usr/bin:/bin", "KITTY_CONFIG_DIRECTORY=/nonexistent", "LANG=C.UTF-8"]
        let terminal: pid_t
        do {
            terminal = try spawn(kind.path, kind.arguments(command), environment: environment)
        } catch {
            kill(xvfb, SIGTERM)
            _ = reap(xvfb, timeout: 5)
            throw error
        }
        return GraphicsTerminal(display: display, xvfb: xvfb, terminal: terminal)
    }

    /// Types `text` into the window (after moving the pointer over it: focus without a window manager).
    public func type(_ text: String) {
        _ = Self.run("/usr/bin/xdotool", ["mousemove", "300", "300"], display: display)
        _ = Self.run("/usr/bin/xdotool", ["type", "--delay", "50", text], display: display)
    }

    /// The screen now, as a colour histogram (nil when the screenshot failed).
    public func histogram() -> Histogram? {
        guard let text = Self.run("/usr/bin/convert", ["x:root", "-depth", "8", "-format", "%c", "histogram:info:-"], display: display) else {
            return nil
        }
        var counts: [UInt32: Int] = [:]
        for line in text.split(separator: "\n") {
            // "   12345: (255,0,0) #FF0000 red"
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let count = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                  let hash = parts[1].firstIndex(of: "#") else { continue }
            let hex = parts[1][parts[1].index(after: hash)...].prefix(6)
            guard hex.count == 6, let rgb = UInt32(hex, radix: 16) else { continue }
            counts[rgb, default: 0] += count
        }
        return Histogram(counts: counts)
    }

    /// Saves a screenshot (for a person to look at when a test fails).
    public func screenshot(to path: String) {
        _ = Self.run("/usr/bin/import", ["-window", "root", path], display: display)
    }

    /// Polls the screen until `condition` holds or `timeout` seconds pass; returns the last histogram
    /// and whether it held.
    public func wait(timeout: Double, _ condition: (Histogram) -> Bool) -> (ok: Bool, last: Histogram?) {
        var last: Histogram?
        let ok = Self.waitFor(timeout: timeout) {
            last = histogram()
            return last.map(condition) ?? false
        }
        return (ok, last)
    }

    /// Ends the terminal and Xvfb (the processes this launcher started, by pid) and waits for both.
    public func stop() {
        for pid in [terminal, xvfb] {
            kill(pid, SIGTERM)
            if !Self.reap(pid, timeout: 5) {
                kill(pid, SIGKILL)
                _ = Self.reap(pid, timeout: 5)
            }
        }
    }

    /// Why the terminal could not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Polls `condition` every 100 ms until it holds or `timeout` passes.
    public static func waitFor(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition() { return true }
            if Date() >= deadline { return false }
            usleep(100_000)
        }
    }

    static func spawn(_ path: String, _ arguments: [String], environment: [String]? = nil,
                      stdout: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }).map { strdup($0) } + [nil]
        defer { env.forEach { free($0) } }
        // The test thread's signal mask would be inherited: a blocked SIGTERM makes `stop()` wait
        // for the SIGKILL, which leaves Xvfb's lock and socket behind.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, env)
        guard status == 0 else { throw Failure("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits up to `timeout` seconds for `pid` to exit; true when it did (also when it was reaped
    /// elsewhere: `ECHILD`).
    static func reap(_ pid: pid_t, timeout: Double) -> Bool {
        var status: Int32 = 0
        return waitFor(timeout: timeout) {
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result < 0 && errno == ECHILD)
        }
    }

    /// Runs a short X client on the display to completion (killed after 20 s); its stdout, or nil.
    static func run(_ path: String, _ arguments: [String], display: Int) -> String? {
        let output = NSTemporaryDirectory() + "graphics-terminal-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":\(display)"
        guard let pid = try? spawn(path, arguments, environment: environment.map { "\($0.key)=\($0.value)" }, stdout: output) else {
            return nil
        }
        if !reap(pid, timeout: 20) {
            kill(pid, SIGKILL)
            _ = reap(pid, timeout: 5)
            return nil
        }
        return try? String(contentsOfFile: output, encoding: .utf8)
    }
}
