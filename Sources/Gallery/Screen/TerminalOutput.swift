import CNcurses
import Foundation
import Locking

/// The screen's bytes on their way to the terminal, without the UI thread ever waiting for it.
///
/// Standard output (curses' `doupdate` and the frame writer's bytes alike, in the order written)
/// goes into a pipe. A drain thread only moves what arrives into memory and wakes the frame loop;
/// the UI thread writes it to the terminal through a non-blocking descriptor of its own, as much as
/// the terminal takes, and polls for room when some is left (`backlog`). So a 2 MB sixel frame that
/// xterm needs 200 ms to read no longer stops the loop: keys, loads and signals are handled
/// meanwhile, and frames owed while the terminal is behind are coalesced (`GalleryApp`).
///
/// `@unchecked Sendable`: `received` is a `Locked`; `pending`/`offset` are touched by the UI thread
/// only; the descriptors and the wake descriptor are immutable.
final class TerminalOutput: @unchecked Sendable {
    private struct Received {
        var chunks: [[UInt8]] = []
        var bytes = 0
        /// The drain thread is between seeing bytes in the pipe and handing them over.
        var reading = false
    }

    /// The non-blocking write descriptor on the terminal (poll it for POLLOUT while `backlog > 0`).
    let terminal: Int32
    /// The original fd 1 (the terminal, blocking): for `TIOCGWINSZ` and to restore at the end.
    let savedStdout: Int32
    private let pipeRead: Int32
    private let received = Locked(Received())
    private let drainerEnded = DispatchSemaphore(value: 0)
    private var pending: [UInt8] = []
    private var offset = 0
    private var finished = false

    /// Redirects fd 1 into the pipe and starts the drain thread, which writes a byte to
    /// `wakeDescriptor` (the UI inbox's wake pipe) whenever bytes arrived. Nil when fd 1 cannot be
    /// redirected (then the screen writes to the terminal directly, as before).
    init?(wakeDescriptor: Int32) {
        var pipeRead: Int32 = -1, terminal: Int32 = -1, saved: Int32 = -1
        guard sdg_curses_output_to_pipe(&pipeRead, &terminal, &saved) == 0 else { return nil }
        self.pipeRead = pipeRead
        self.terminal = terminal
        savedStdout = saved
        let thread = Thread { [received, drainerEnded, pipeRead] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                // Wait for bytes, then say so before taking them out of the pipe: `isWritten` never
                // sees them nowhere (read but not handed over).
                var ready = pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)
                if poll(&ready, 1, -1) < 0 && errno == EINTR { continue }
                received.withLock { $0.reading = true }
                let count = read(pipeRead, &buffer, buffer.count)
                if count < 0 && errno == EINTR { received.withLock { $0.reading = false }; continue }
                if count <= 0 { received.withLock { $0.reading = false }; break }
                let chunk = Array(buffer[0..<count])
                received.withLock { $0.chunks.append(chunk); $0.bytes += count; $0.reading = false }
                var byte: UInt8 = 0x4F
                if wakeDescriptor >= 0 { _ = write(wakeDescriptor, &byte, 1) }
            }
            close(pipeRead)
            drainerEnded.signal()
        }
        thread.name = "sdgallery.tty-drain"
        thread.start()
    }

    /// Bytes written to standard output that the terminal has not taken yet (UI thread).
    var backlog: Int { pending.count - offset + received.withLock { $0.bytes } }

    /// Whether every byte written to standard output so far reached the terminal: none waiting here,
    /// none with the drain thread, none in the pipe (UI thread; after stdio was flushed).
    var isWritten: Bool {
        guard offset == pending.count else { return false }
        return received.withLock { state in
            var inPipe: Int32 = 0
            return state.bytes == 0 && !state.reading && ioctl(pipeRead, UInt(FIONREAD), &inPipe) == 0 && inPipe == 0
        }
    }

    /// UI thread: writes what the terminal takes now; returns the bytes still waiting.
    @discardableResult
    func flush() -> Int {
        takeReceived()
        while offset < pending.count {
            let count = pending.withUnsafeBytes { raw in
                write(terminal, raw.baseAddress! + offset, min(pending.count - offset, 1 << 16))
            }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                // EAGAIN: the terminal is full for now. Any other error: it is gone; nothing more to send.
                if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK { pending.removeAll(); offset = 0 }
                break
            }
        }
        if offset == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
            offset = 0
        } else if offset >= 1 << 20 {
            pending.removeFirst(offset)
            offset = 0
        }
        return backlog
    }

    /// UI thread: makes fd 1 the terminal again, waits for the drain thread to see the end of the
    /// pipe, and writes everything still waiting (giving up after `timeout` seconds if the terminal
    /// takes nothing). Afterwards writes to standard output reach the terminal directly. Idempotent.
    func finish(timeout: Double = 10) {
        guard !finished else { return }
        finished = true
        _ = sdg_curses_output_to_terminal(savedStdout)
        // Every write end of the pipe is closed now (fd 1 was the only one), so the drain thread ends.
        _ = drainerEnded.wait(timeout: .now() + 2)
        let deadline = Date().addingTimeInterval(timeout)
        while flush() > 0, Date() < deadline {
            var descriptor = pollfd(fd: terminal, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        close(terminal)
        close(savedStdout)
    }

    private func takeReceived() {
        let chunks = received.withLock { state -> [[UInt8]] in
            defer { state.chunks.removeAll(); state.bytes = 0 }
            return state.chunks
        }
        for chunk in chunks { pending.append(contentsOf: chunk) }
    }
}
