import Foundation

/// A list read from a pipe as it arrives (`find … | sdgallery -`): a thread of its own reads the
/// descriptor and hands over each batch of complete lines as an index of its own, at most every
/// `interval` seconds (and at once for the first lines), then says when the pipe closed. The lines
/// resolve relative paths against the working directory, as a list on standard input always did.
/// Reading costs linear time whatever the line lengths, and a line longer than
/// `URLList.maximumLineLength` keeps only its first bytes (it is reported as too long).
public final class StreamingList: Sendable {
    private let descriptor: Int32
    private let interval: Double

    /// Reads `descriptor` (closed when the pipe ends).
    public init(descriptor: Int32, interval: Double = 0.1) {
        self.descriptor = descriptor
        self.interval = interval
    }

    /// Starts reading: `lines` gets each batch (on the reader's thread), `ended` once, at the end.
    public func start(lines: @escaping @Sendable (URLListIndex) -> Void, ended: @escaping @Sendable () -> Void) {
        let descriptor = descriptor, interval = interval
        let thread = Thread {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            var pending = Data()
            var nextLine = 1
            var lastHandOver = 0.0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // Where the last complete line in `pending` ends (each read searches only its own bytes,
            // so a long line costs linear time), and whether the rest of an over-long line is being
            // skipped (`pending` keeps its first `keep` bytes: enough for the index to call it too long).
            var completeEnd: Int?
            var discarding = false
            let keep = URLList.maximumLineLength + 2
            func handOver(upTo end: Int) {
                guard end > 0 else { return }
                let index = URLListIndex(bytes: pending.prefix(end), baseDirectory: cwd, firstLine: nextLine)
                nextLine += pending.prefix(end).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                pending.removeFirst(end)
                completeEnd = completeEnd.flatMap { $0 > end ? $0 - end : nil }
                lastHandOver = Date().timeIntervalSinceReferenceDate
                if index.count > 0 { lines(index) }
            }
            while true {
                // Complete lines waiting: hand them over when the interval is up, even if the pipe
                // stays quiet.
                if let end = completeEnd {
                    let wait = max(0, interval - (Date().timeIntervalSinceReferenceDate - lastHandOver))
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, Int32(wait * 1000)) == 0 { handOver(upTo: end); continue }
                }
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                var chunk = buffer[0..<count]
                if discarding {
                    guard let newline = chunk.firstIndex(of: 0x0A) else { continue }
                    discarding = false
                    chunk = chunk[newline...]
                }
                let offset = pending.count
                pending.append(contentsOf: chunk)
                if let newline = chunk.lastIndex(of: 0x0A) { completeEnd = offset + (newline - chunk.startIndex) + 1 }
                let lineStart = completeEnd ?? 0
                if pending.count - lineStart > keep {
                    pending.removeSubrange((pending.startIndex + lineStart + keep)...)
                    discarding = true
                }
                let now = Date().timeIntervalSinceReferenceDate
                if nextLine == 1 || now - lastHandOver >= interval, let end = completeEnd { handOver(upTo: end) }
            }
            handOver(upTo: pending.count)  // what is left, the last line without its newline too
            close(descriptor)
            ended()
        }
        thread.name = "sdgallery.stdin"
        thread.start()
    }
}
