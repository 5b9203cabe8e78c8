import Foundation

/// The gallery's event log seen from a test (`SDGALLERY_EVENT_LOG`, written by the binary's
/// `EventLog`): waits for its `settled frame=K keys=N` line instead of polling the screen.
///
/// ```swift
/// let log = SettleLog(directory: dir.path)
/// // start "\(log.assignment) sdgallery list.txt" in a terminal, send 3 keys, then:
/// let settled = log.waitSettled(keys: 3, timeout: 60)
/// ```
public struct SettleLog: Sendable {
    /// One `settled` line.
    public struct Settled: Sendable, Equatable {
        /// The last frame written to the terminal.
        public var frame: Int
        /// Keys read so far.
        public var keys: Int
    }

    /// The log file.
    public let path: String

    /// A log at `directory/events.log`.
    public init(directory: String) { path = directory + "/events.log" }

    /// `SDGALLERY_EVENT_LOG=PATH`: put it before the command (in a shell command line).
    public var assignment: String { "SDGALLERY_EVENT_LOG=\(path)" }

    /// The log's lines so far.
    public var lines: [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The `settled` lines so far, in order.
    public var settled: [Settled] {
        lines.compactMap(Self.parse)
    }

    /// A `settled frame=K keys=N …` line, or nil for any other.
    static func parse(_ line: String) -> Settled? {
        guard line.hasPrefix("settled ") else { return nil }
        var fields: [String: Int] = [:]
        for part in line.split(separator: " ").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let value = Int(pair[1]) { fields[String(pair[0])] = value }
        }
        guard let frame = fields["frame"], let keys = fields["keys"] else { return nil }
        return Settled(frame: frame, keys: keys)
    }

    /// Waits (up to `timeout` seconds) for the first frame to be written: from then on the program
    /// reads every key sent (before, the capability probe or the shell may take them).
    @discardableResult
    public func waitForFirstFrame(timeout: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            if lines.contains(where: { $0.hasPrefix("frame ") }) { return true }
            if late { return false }
            usleep(20_000)
        }
    }

    /// The program's state now: the last line when it is `settled` (a frame written or a `waiting`
    /// line after it means the program is busy again), else nil.
    public var current: Settled? {
        guard let last = lines.last, last.hasPrefix("settled ") else { return nil }
        return Self.parse(last)
    }

    /// Waits (checking every 20 ms, up to `timeout` seconds) until the program is settled having
    /// read at least `keys` keys, on a frame after `frame` (nil: any); returns that state, or nil
    /// when it did not come.
    public func waitSettled(keys: Int, after frame: Int? = nil, timeout: Double = 60) -> Settled? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let late = Date() >= deadline
            if let now = current, now.keys >= keys, now.frame > (frame ?? -1) { return now }
            if late { return nil }
            usleep(20_000)
        }
    }
}
