import FlyingFox
import FlyingSocks
import Foundation

/// A response body the server pulls in chunks, sleeping between them to hold a bandwidth limit.
struct ThrottledBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    /// Bytes per chunk.
    static let chunkSize = 4096

    let data: Data
    let bytesPerSecond: Int

    func makeAsyncIterator() -> Iterator { Iterator(data: data, rate: bytesPerSecond) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        typealias Buffer = [UInt8]
        let data: Data
        let rate: Int
        var offset = 0

        mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard offset < data.count else { return nil }
            let size = Swift.min(Swift.max(1, Swift.min(count, ThrottledBody.chunkSize)), data.count - offset)
            try await Task.sleep(for: .seconds(Double(size) / Double(rate)))
            let start = data.startIndex + offset
            offset += size
            return [UInt8](data[start..<start + size])
        }
    }
}
