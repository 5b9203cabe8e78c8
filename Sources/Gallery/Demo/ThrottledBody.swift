import FlyingFox
import FlyingSocks
import Foundation

/// A response body the server pulls in chunks, sleeping between them to hold a bandwidth limit (none
/// when `bytesPerSecond` is 0 or less). Used by the demo server and by `sdgallery-bench serve`, which
/// also counts what was sent (`observer`) and cuts bodies short to play a failing network (`cutAfter`).
///
/// ```swift
/// let body = ThrottledBody(data: data, bytesPerSecond: 400_000)
/// HTTPResponse(statusCode: .ok, body: HTTPBodySequence(from: body, count: data.count, suggestedBufferSize: ThrottledBody.chunkSize))
/// ```
public struct ThrottledBody: AsyncBufferedSequence, Sendable {
    public typealias Element = UInt8
    /// Bytes per chunk of a throttled body.
    public static let chunkSize = 4096
    /// Largest chunk of an unthrottled body.
    public static let unthrottledChunkSize = 65_536

    let data: Data
    let bytesPerSecond: Int
    let cutAfter: Int?
    let observer: (any ThrottledBodyObserver)?

    /// A body of `data` at `bytesPerSecond` (0: as fast as the server takes it). With `cutAfter`, the
    /// body throws after that many bytes (the server then drops the connection, short of its
    /// Content-Length). `observer` is told every chunk handed to the server and is kept alive as long
    /// as the body is.
    public init(data: Data, bytesPerSecond: Int, cutAfter: Int? = nil, observer: (any ThrottledBodyObserver)? = nil) {
        self.data = data
        self.bytesPerSecond = bytesPerSecond
        self.cutAfter = cutAfter
        self.observer = observer
    }

    /// The chunk size to suggest to `HTTPBodySequence`.
    public var suggestedBufferSize: Int { bytesPerSecond > 0 ? Self.chunkSize : Self.unthrottledChunkSize }

    public func makeAsyncIterator() -> Iterator { Iterator(body: self) }

    /// Hands out the chunks.
    public struct Iterator: AsyncBufferedIteratorProtocol {
        public typealias Buffer = [UInt8]
        let body: ThrottledBody
        var offset = 0

        public mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        public mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            let data = body.data
            let end = Swift.min(data.count, body.cutAfter ?? data.count)
            guard offset < end else {
                if offset < data.count { throw ThrottledBodyCut() }
                return nil
            }
            let largest = body.bytesPerSecond > 0 ? ThrottledBody.chunkSize : ThrottledBody.unthrottledChunkSize
            let size = Swift.min(Swift.max(1, Swift.min(count, largest)), end - offset)
            if body.bytesPerSecond > 0 { try await Task.sleep(for: .seconds(Double(size) / Double(body.bytesPerSecond))) }
            let start = data.startIndex + offset
            offset += size
            body.observer?.sent(size)
            return [UInt8](data[start..<start + size])
        }
    }
}

/// Told the size of every chunk a `ThrottledBody` hands to the server.
public protocol ThrottledBodyObserver: AnyObject, Sendable {
    /// `count` more bytes went to the server.
    func sent(_ count: Int)
}

/// Thrown by a body cut short on purpose.
public struct ThrottledBodyCut: Error, Sendable {}
