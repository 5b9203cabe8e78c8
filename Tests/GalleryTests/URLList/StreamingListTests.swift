import Foundation
import Locking
import Testing
@testable import Gallery

/// A list on a pipe (issue 21: a 100 MB line on standard input was read in quadratic time and held
/// whole): linear time, and an over-long line keeps only what its diagnostic needs.
@Suite struct StreamingListTests {
    @Test func aHugeLineIsReadInLinearTimeAndReportedTooLong() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        Thread.detachNewThread {
            let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
            for _ in 0..<24 { _ = chunk.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
            let tail = Array("\n/tmp/after.jpg\n".utf8)
            _ = write(writer, tail, tail.count)
            close(writer)
        }
        let indexes = Locked<[URLListIndex]>([])
        let ended = Locked(false)
        let start = ContinuousClock.now
        StreamingList(descriptor: fds[0], interval: 0.05).start(lines: { index in indexes.withLock { $0.append(index) } },
                                                                ended: { ended.withLock { $0 = true } })
        while !ended.withLock({ $0 }) && ContinuousClock.now - start < .seconds(60) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(ended.withLock { $0 })
        #expect(ContinuousClock.now - start < .seconds(20), "reading 24 MB took \(ContinuousClock.now - start)")
        let results = indexes.withLock { $0 }.flatMap { index in (0..<index.count).map { index.entry(at: $0) } }
        #expect(results.count == 2)
        guard results.count == 2 else { return }
        if case .failure(let diagnostic) = results[0] { #expect(diagnostic.description.contains("too long")) } else { Issue.record("the long line parsed") }
        #expect((try? results[1].get())?.location == .file(path: "/tmp/after.jpg"))
        #expect(indexes.withLock { $0 }.allSatisfy { $0.bytes.count <= URLList.maximumLineLength + 64 })
    }
}
