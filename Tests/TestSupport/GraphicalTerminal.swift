import Foundation
import Locking

/// A real graphics terminal under its own Xvfb for end-to-end tests: starts Xvfb on a display
/// number, starts xterm (sixel, vt340), mlterm (sixel), kitty (kitty graphics, software OpenGL),
/// Konsole (kitty graphics, sixel, iTerm2), foot (sixel; on weston) or GNOME Terminal (text only)
/// running a shell command, sends keys with xdotool, takes screenshots with ImageMagick's `import`
/// and compares them with `compare -metric AE`. Waits for conditions ("settled": two screenshots a
/// little apart that agree), never a fixed sleep. `stop()` (also on deinit) kills what it started,
/// by pid. Blocking: call it from `Blocking.run`.
public final class GraphicalTerminal: @unchecked Sendable {  // safe: `pids` is behind `Locked`; the rest is immutable
    /// The terminal program (how each starts: `Kind.launch`).
    public enum Kind: String, Sendable, CaseIterable {
        case xterm, mlterm, kitty, konsole, foot
        case gnomeTerminal = "gnome-terminal"
        /// kitty 0.41 (Unicode placeholders) from the Debian 13 root (`DebianRoot`).
        case kitty041 = "kitty-0.41"
    }

    /// Why the tools are missing, nil when everything is installed (scripts/setup installs them).
    /// Under a sanitizer the suites that use real terminals are skipped: they test pixels, which the
    /// plain `make test` covers, and an instrumented binary in three terminals doubled the CI time.
    public static func missingTools(for kind: Kind) -> String? {
        if Sanitizers.thread || Sanitizers.address { return "real-terminal tests run in make test, not under sanitizers" }
        let tools = ["/usr/bin/Xvfb", "/usr/bin/xdotool", "/usr/bin/import", "/usr/bin/compare"] + kind.programs
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        return missing.isEmpty ? nil : "needs \(missing.joined(separator: ", "))"
    }

    /// Display numbers this process hands out (tests of one run never share one).
    private static let nextDisplay = Locked(0)

    /// The X display, e.g. ":51".
    public let display: String
    /// The screen's size in pixels.
    public let screenSize = (width: 1600, height: 1000)
    /// A private folder (0700) for the terminal's sockets and configuration, removed by `stop()`.
    let runtime: String
    private let pids = Locked<[pid_t]>([])
    /// The gallery's event log, when the command writes one (`SettleLog.assignment`): then
    /// `settledScreenshot` waits for its "settled" line instead of comparing screenshots.
    public let settleLog: SettleLog?
    /// Keys sent so far (`xdotool key`/`type`), and the last settled state seen.
    let progress = Locked<(keysSent: Int, lastSettled: SettleLog.Settled?)>((0, nil))

    /// Starts Xvfb on the first free display of `displays` and `kind` in it running `command`
    /// (`sh -c`) in `directory`, as `Kind.launch` describes (helpers such as weston or a session bus
    /// first); `background` is the terminal's background colour (e.g. "#808080") where it takes one;
    /// `size` its columns × rows. Returns once the terminal window exists and runs the command.
    public init(kind: Kind, command: String, directory: String, displays: ClosedRange<Int> = 50...59,
                background: String? = nil, size: (columns: Int, rows: Int) = (120, 36), settleLog: SettleLog? = nil) throws {
        self.settleLog = settleLog
        let number = try Self.claimDisplay(in: displays)
        display = ":\(number)"
        var template = Array("/tmp/sdg-terminal-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TerminalError(message: "mkdtemp: \(String(cString: strerror(errno)))") }
        runtime = String(cString: made)
        pids.withLock { $0.append(Self.spawn("/usr/bin/Xvfb", [display, "-screen", "0", "1600x1000x24", "+extension", "GLX", "-nolisten", "tcp"], environment: [:])) }
        // Ready when it accepts a client (the socket appears a little before that).
        guard Self.waitUntil(timeout: 20, {
            FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                && (try? Self.run("/usr/bin/xdotool", ["getdisplaygeometry"], environment: ["DISPLAY": ":\(number)"], timeout: 5).status) == 0
        }) else {
            stop()
            throw TerminalError(message: "Xvfb \(display) did not start")
        }
        // The shell marks that it runs: the terminal is up (foot's compositor window comes first).
        let started = runtime + "/started"
        let launch = kind.launch(shell: "touch '\(started)'; cd '\(directory)' && \(command)", size: size, background: background,
                                 display: display, runtime: runtime)
        for helper in launch.helpers {
            pids.withLock { $0.append(Self.spawn(helper.program, helper.arguments, environment: helper.environment)) }
            guard Self.waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: helper.readyFile) }) else {
                stop()
                throw TerminalError(message: "\(helper.program) did not start for \(kind) on \(display)")
            }
        }
        // A terminal that opens no window within its time (seen now and then for xterm and kitty on a
        // loaded machine) is killed and started once more.
        var window = false
        for timeout in [30.0, 45.0] where !window {
            let pid = Self.spawn(launch.program, launch.arguments, environment: launch.environment)
            pids.withLock { $0.append(pid) }
            window = Self.waitUntil(timeout: timeout) {
                FileManager.default.fileExists(atPath: started) && !self.visibleWindows().isEmpty
            }
            if !window {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                pids.withLock { $0.removeAll { $0 == pid } }
            }
        }
        guard window else {
            stop()
            throw TerminalError(message: "\(kind) did not open a window on \(display)")
        }
        adoptWindowOwners()
        _ = try? xdotool(["mousemove", "\(launch.pointer.x)", "\(launch.pointer.y)"])  // focus without a window manager
    }

    /// The display's mapped windows, by name or class (weston's window is found by class only).
    func visibleWindows() -> Set<String> {
        let found = [["--name", "."], ["--class", "."]].map { (try? xdotool(["search", "--onlyvisible"] + $0)) ?? "" }
        return Set(found.flatMap { $0.split(separator: "\n").map(String.init) })
    }

    /// Adds the processes owning the display's windows that were not started here (GNOME Terminal's
    /// server, started by its session bus) to what `stop()` ends.
    private func adoptWindowOwners() {
        for window in visibleWindows() {
            guard let owner = (try? xdotool(["getwindowpid", String(window)])).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
                  owner > 0 else { continue }
            pids.withLock { if !$0.contains(owner) { $0.append(owner) } }
        }
    }

    deinit { stop() }

    /// Kills the terminal and Xvfb (SIGTERM, then SIGKILL) and reaps them. Idempotent.
    public func stop() {
        let started = pids.withLock { list -> [pid_t] in defer { list.removeAll() }; return list }
        for pid in started.reversed() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            if !Self.waitUntil(timeout: 5, { waitpid(pid, &status, WNOHANG) != 0 }) {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
        }
        try? FileManager.default.removeItem(atPath: runtime)
    }

    /// Sends X key names (`Next`, `j`, `ctrl+l`, `Return`) one after another.
    public func key(_ keys: String...) throws {
        _ = try xdotool(["key", "--delay", "60"] + keys)
    }

    /// Types text.
    public func type(_ text: String) throws {
        _ = try xdotool(["type", "--delay", "60", text])
    }

    /// A screenshot of the whole screen, cropped to `crop` ("WxH+X+Y") when given.
    public func screenshot(to path: String, crop: String? = nil) throws {
        var arguments = ["-display", display, "-window", "root"]
        if let crop { arguments += ["-crop", crop, "+repage"] }
        let result = try Self.run("/usr/bin/import", arguments + [path], timeout: 30)
        guard result.status == 0 else { throw TerminalError(message: "import failed: \(result.err)") }
    }

    /// Takes screenshots `interval` seconds apart until two in a row agree (loads and drawing have
    /// settled) and leaves the last one at `path`; false when the screen kept changing until `timeout`.
    /// With a `settleLog`, waits for the program's "settled" line instead (`screenshotWhenSettled`;
    /// `newFrame`: on a frame after the last settled one, as after a resize).
    @discardableResult
    public func settledScreenshot(to path: String, crop: String? = nil, interval: Double = 1.5, timeout: Double = 60,
                                  newFrame: Bool = false) throws -> Bool {
        if let settleLog {
            let after = newFrame ? progress.withLock { $0.lastSettled?.frame } : nil
            return try screenshotWhenSettled(settleLog, to: path, crop: crop, after: after, timeout: timeout) != nil
        }
        let previous = path + ".previous.png"
        defer { try? FileManager.default.removeItem(atPath: previous) }
        try screenshot(to: previous, crop: crop)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            usleep(useconds_t(interval * 1_000_000))
            try screenshot(to: path, crop: crop)
            if try Self.differingPixels(previous, path) == 0 { return true }
            try? FileManager.default.removeItem(atPath: previous)
            try FileManager.default.moveItem(atPath: path, toPath: previous)
        }
        try screenshot(to: path, crop: crop)
        return false
    }

    /// The number of pixels that differ by more than `fuzz` (ImageMagick `compare -metric AE`).
    public static func differingPixels(_ a: String, _ b: String, fuzz: String = "5%", diff: String = "null:") throws -> Int {
        let result = try run("/usr/bin/compare", ["-metric", "AE", "-fuzz", fuzz, a, b, diff], timeout: 30)
        // compare prints the count on stderr; exit 1 means "different", 2 an error.
        guard result.status != 2, let count = Double(result.err.split(separator: " ").first.map(String.init) ?? "") else {
            throw TerminalError(message: "compare failed: \(result.err)")
        }
        return Int(count)
    }

    /// Runs xdotool on this display and returns its output.
    @discardableResult
    public func xdotool(_ arguments: [String]) throws -> String {
        progress.withLock { $0.keysSent += Self.keyCount(arguments) }
        let result = try Self.run("/usr/bin/xdotool", arguments, environment: ["DISPLAY": display], timeout: 15)
        guard result.status == 0 else { throw TerminalError(message: "xdotool \(arguments.first ?? "") failed: \(result.err)") }
        return result.out
    }

    /// Why the terminal could not be used.
    public struct TerminalError: Error, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    private static func claimDisplay(in displays: ClosedRange<Int>) throws -> Int {
        try nextDisplay.withLock { next in
            for offset in 0..<displays.count {
                let number = displays.lowerBound + (next + offset) % displays.count
                if !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock"),
                   !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                    next = (next + offset + 1) % displays.count
                    return number
                }
            }
            throw TerminalError(message: "no free X display in \(displays)")
        }
    }

    /// Polls `condition` every 100 ms until it holds or `timeout` seconds pass (one last look at the end).
    public static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    /// Starts a program in the background (through `ChildProcess.start`).
    static func spawn(_ path: String, _ arguments: [String], environment extra: [String: String]) -> pid_t {
        ChildProcess.start(path, arguments, environment: extra)
    }

    /// Runs a short program to completion (killed after `timeout`): status, stdout, stderr (through
    /// `ChildProcess`, the one runner).
    @discardableResult
    public static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double) throws -> (status: Int32, out: String, err: String) {
        let result = try ChildProcess.run(path, arguments, timeout: timeout, environment: environment)
        return (result.status, result.out, result.err)
    }
}
