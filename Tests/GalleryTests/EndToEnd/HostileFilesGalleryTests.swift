import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30: a list naming `/dev/tty` or `/dev/stdin` made an image loader read the terminal (keys
/// swallowed; `q`, Ctrl-C and SIGTERM ignored, only SIGKILL ended it), and a FIFO blocked at open —
/// as an entry, inside a directory, as `--netrc-file` or as `SDGALLERY_EVENT_LOG`. Now each such
/// cell says what the path is, the good image still shows, and `q` quits at once.
@Suite(.endToEnd, EndToEnd.needs(.tmux, .convert))
struct HostileFilesGalleryTests {
    @Test(.timeLimit(.minutes(2)))
    func devicesAndFIFOsInAListAreRefusedAndQuitWorks() async throws {
        let dir = try Fixtures.temporaryDirectory("hostile-files")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await EndToEnd.makeImagesAsync(in: dir, [("good.png", "#e01010")])
        let fifo = dir.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let folder = dir.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder.appendingPathComponent("inner.jpg").path, 0o600) == 0)
        try Data("/dev/tty TTY\n/dev/stdin STDIN\n\(fifo) FIFO\ngood.png GOOD\n".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let log = dir.appendingPathComponent("events").path
        #expect(mkfifo(log, 0o600) == 0)
        let command = "cd \(dir.path) && SDGALLERY_EVENT_LOG=\(log) XDG_CACHE_HOME=\(dir.path)/cache \(EndToEnd.binary.path) --list "
            + "list.txt folder; echo EXITED $?; sleep 30"
        let tmux = try await TmuxSession.start(columns: 120, rows: 30, command: command)
        let shown = await tmux.wait(timeout: 30) { screen in
            screen.contains("GOOD") && screen.contains("320×240") && screen.components(separatedBy: "not a file").count - 1 >= 3
        }
        #expect(shown.ok, "\(shown.screen)")
        #expect(shown.screen.contains("terminal or other device"), "\(shown.screen)")
        #expect(shown.screen.contains("FIFO"), "\(shown.screen)")
        await tmux.send("q")
        let exited = await tmux.wait(timeout: 5) { $0.contains("EXITED 0") }
        #expect(exited.ok, "q did not quit: \(exited.screen)")
    }

    /// `--netrc-file` naming a FIFO: libcurl would block the network thread opening it; refused at once.
    @Test(.timeLimit(.minutes(1)))
    func aFIFOAsTheNetrcFileIsRefusedAtOnce() async throws {
        let dir = try Fixtures.temporaryDirectory("hostile-netrc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("netrc").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await Blocking.run {
            try EndToEnd.run(EndToEnd.binary.path, ["--print", "--netrc-file", fifo, "http://127.0.0.1:9/a.png"])
        }
        #expect(result.status == 1)
        #expect(result.err.contains("--netrc-file") && result.err.contains("FIFO"), "\(result.err)")
    }
}
