import Foundation
import SafeFiles

/// One line per event of the frame loop, for tests and tools that wait on the program instead of
/// polling its screen: `SDGALLERY_EVENT_LOG=PATH` appends to PATH (created 0600 if missing).
///
/// - `frame K written`: frame K (and everything before it) has been handed to the terminal.
/// - `settled frame=K keys=N loads=0 paints=0`: nothing is pending — no load, decode, paint,
///   frame or byte owed to the terminal, no key waiting — and frame K is the last one written, after
///   N keys were read. Written once per change of K or N (a key that changes nothing still
///   settles), and again after a `waiting` line.
/// - `waiting NAME…`: what keeps the loop from settling (`GalleryApp.pendingWork`: `frame`,
///   `repaint`, `key`, `input`, `fling`, `cells`, `downloads`, `paints`, `animation`, `output`,
///   `prefetches-held`, `prefetches-running`), written when that set changes. A `waiting` line after
///   a `settled` one means the program is busy again.
///
/// Written by the UI thread only; a write that fails is dropped (the log never stops the program).
public final class EventLog {
    private let descriptor: Int32

    /// The log named by `SDGALLERY_EVENT_LOG` in `environment`, or nil when it names none or cannot be opened.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> EventLog? {
        guard let path = environment["SDGALLERY_EVENT_LOG"], !path.isEmpty else { return nil }
        return EventLog(path: path)
    }

    /// Opens `path` for appending; nil when it cannot be opened, or is not a regular file or is a
    /// symbolic link (`SafeFile.openForAppending`: a FIFO blocked the start, a link was followed).
    public init?(path: String) {
        guard case .success(let fd) = SafeFile.openForAppending(path, mode: 0o600) else { return nil }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Appends `line` and a newline in one write.
    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
