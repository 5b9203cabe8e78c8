import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ImageCodecs
import TestSupport
import Testing
@testable import TerminalGraphics

/// Runs a real `xterm -ti vt340` under Xvfb, shows our sixel bytes, takes a screenshot with
/// `import` and reads its pixels back through `/usr/bin/convert`.
enum XtermHarness {
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(tool)") {
            return "\(dir)/\(tool)"
        }
        return nil
    }

    static let available: Bool = ["xvfb-run", "xterm", "import", "timeout"].allSatisfy { which($0) != nil }
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")

    /// Runs a command (found on PATH) with stdin/stdout/stderr on /dev/null, killing it after
    /// `timeout` seconds; returns its exit status. Uses posix_spawn + waitpid rather than Foundation's
    /// Process, whose exit detection waits for daemons the command leaves behind (tmux's server).
    static func run(_ arguments: [String], timeout: TimeInterval) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        // Children get an empty signal mask and default handlers, not the test runner's.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return -1
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    /// A display number to start xvfb-run's search from (`-a` alone races when two tests start Xvfb
    /// at once: both pick :99).
    static func randomServerNumber() -> String { String(Int.random(in: 100...900)) }

    /// Parses a binary PPM (P6, maxval 255) into (width, height, rgb).
    static func readPPM(_ data: Data) -> (width: Int, height: Int, rgb: [UInt8])? {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var i = 2
        guard bytes.starts(with: Array("P6".utf8)) else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
            var value = 0
            while i < bytes.count && (0x30...0x39).contains(bytes[i]) { value = value * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(value)
        }
        i += 1
        guard fields.count == 3, fields[2] == 255, bytes.count - i >= fields[0] * fields[1] * 3 else { return nil }
        return (fields[0], fields[1], Array(bytes[i..<(i + fields[0] * fields[1] * 3)]))
    }
}

@Suite struct SixelXtermEndToEndTests {
    @Test(
        .enabled(if: XtermHarness.available, "skipped: needs xvfb-run, xterm, import, timeout and /usr/bin/convert"),
        .timeLimit(.minutes(1)))
    func solidImageAppearsInXterm() async throws {
        let colour = (r: 200, g: 40, b: 60)
        let image = TestImages.solid(width: 240, height: 120, r: UInt8(colour.r), g: UInt8(colour.g), b: UInt8(colour.b))
        // 12×3 cells of 10×20 px → a 120×60 box; the image is scaled down to fill it.
        let out = try SixelRenderer().render(image, cells: CellSize(columns: 12, rows: 3), cellPixelSize: PixelSize(width: 10, height: 20))
        #expect(out.pixelSize == PixelSize(width: 120, height: 60))

        let dir = try Fixtures.temporaryDirectory("sdgallery-e2e-sixel")
        try Data(out.bytes).write(to: dir.appendingPathComponent("image.six"))
        let script = """
            #!/bin/sh
            D='\(dir.path)'
            xterm -ti vt340 -xrm 'XTerm*decTerminalID: vt340' -xrm 'XTerm*numColorRegisters: 256' -bg black -fg white \
              -fa Monospace -fs 10 -geometry 60x20+0+0 -e sh -c "printf '\\033[?25l\\033[H\\033[2J'; cat \\"$D/image.six\\"; touch \\"$D/ready\\"; sleep 10" &
            X=$!
            i=0; while [ ! -f "$D/ready" ] && [ $i -lt 80 ]; do sleep 0.1; i=$((i+1)); done
            sleep 0.5
            import -window root "$D/shot.png"
            kill $X
            """
        try script.write(to: dir.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        let started = Date()
        let status = try await Blocking.run {
            let status = try XtermHarness.run(
                ["timeout", "18", "xvfb-run", "-a", "-n", XtermHarness.randomServerNumber(), "-s", "-screen 0 640x480x24", "sh", dir.appendingPathComponent("run.sh").path],
                timeout: 19)
            _ = try XtermHarness.run(["/usr/bin/convert", dir.appendingPathComponent("shot.png").path, dir.appendingPathComponent("shot.ppm").path], timeout: 10)
            return status
        }
        #expect(status == 0)
        #expect(Date().timeIntervalSince(started) < 20)
        let shot = try #require(XtermHarness.readPPM(try Data(contentsOf: dir.appendingPathComponent("shot.ppm"))))

        // Bounding box of pixels within ±6 of the colour.
        var (minX, minY, maxX, maxY, matches) = (Int.max, Int.max, -1, -1, 0)
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let i = (y * shot.width + x) * 3
                if abs(Int(shot.rgb[i]) - colour.r) <= 6 && abs(Int(shot.rgb[i + 1]) - colour.g) <= 6 && abs(Int(shot.rgb[i + 2]) - colour.b) <= 6 {
                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                    matches += 1
                }
            }
        }
        let outside = (70 * shot.width + 200) * 3
        let checks = [
            // xterm draws the image from the home cell: 1-pixel window border + 2-pixel internal border.
            (minX == 3 && minY == 3, "image starts at (\(minX), \(minY))"),
            (maxX - minX + 1 == 120 && maxY - minY + 1 == 60, "image is \(maxX - minX + 1)×\(maxY - minY + 1)"),
            (matches == 120 * 60, "\(matches) matching pixels"),
            (Array(shot.rgb[outside..<(outside + 3)]) == [0, 0, 0], "background outside the image is not black"),
        ]
        for (ok, message) in checks { #expect(ok, "\(message); screenshot kept in \(dir.path)/shot.png") }
        if checks.allSatisfy(\.0) { try? FileManager.default.removeItem(at: dir) }
    }
}
