import Foundation

/// A list read from a pipe as it arrives (`find … | sdgallery -`): a thread of its own reads the
/// descriptor and hands over each batch of complete lines as an index of its own, at most every
/// `interval` seconds (and at once for the first lines), then says when the pipe closed. The lines
/// resolve relative paths against the working directory, as a list on standard input always did.
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
            func handOver(upTo end: Int) {
                guard end > 0 else { return }
                let index = URLListIndex(bytes: pending.prefix(end), baseDirectory: cwd, firstLine: nextLine)
                nextLine += pending.prefix(end).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                pending.removeFirst(end)
                lastHandOver = Date().timeIntervalSinceReferenceDate
                if index.count > 0 { lines(index) }
            }
            func completeLines() -> Int? {
                pending.lastIndex(of: 0x0A).map { pending.distance(from: pending.startIndex, to: $0) + 1 }
            }
            while true {
                // Complete lines waiting: hand them over when the interval is up, even if the pipe
                // stays quiet.
                if let end = completeLines() {
                    let wait = max(0, interval - (Date().timeIntervalSinceReferenceDate - lastHandOver))
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    if poll(&poller, 1, Int32(wait * 1000)) == 0 { handOver(upTo: end); continue }
                }
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                let now = Date().timeIntervalSinceReferenceDate
                if nextLine == 1 || now - lastHandOver >= interval, let end = completeLines() { handOver(upTo: end) }
            }
            handOver(upTo: pending.count)  // what is left, the last line without its newline too
            close(descriptor)
            ended()
        }
        thread.name = "sdgallery.stdin"
        thread.start()
    }
}
