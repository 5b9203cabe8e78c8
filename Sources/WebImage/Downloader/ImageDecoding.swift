import SafeText
import Foundation
import ImageCodecs

/// The decoders a download operation uses; injectable so tests can use deterministic fakes.
public struct ImageDecoding: Sendable {
    /// One-shot decode of complete bytes. Should throw `DecodeError`.
    public var decode: @Sendable (Data, DecodeOptions) throws -> Image
    /// A fresh incremental decoder for progressive loading.
    public var makeIncrementalDecoder: @Sendable (DecodeOptions) -> any IncrementalDecoding

    /// Creates a decoder set.
    public init(
        decode: @escaping @Sendable (Data, DecodeOptions) throws -> Image,
        makeIncrementalDecoder: @escaping @Sendable (DecodeOptions) -> any IncrementalDecoding
    ) {
        self.decode = decode
        self.makeIncrementalDecoder = makeIncrementalDecoder
    }

    /// The real codecs (`ImageCoders`).
    public static let standard = ImageDecoding(
        decode: { data, options in try ImageCoders.decode(data, options: options) },
        makeIncrementalDecoder: { options in ImageCoders.makeIncrementalDecoder(options: options) })

    /// Runs `body`, turning any non-`DecodeError` into `.corrupt`.
    static func typed(_ body: () throws -> Image) -> Result<Image, DecodeError> {
        do { return .success(try body()) } catch let error as DecodeError {
            return .failure(error)
        } catch {
            return .failure(.corrupt(format: "unknown", reason: UntrustedText.sanitize("\(error)")))
        }
    }
}

/// The decode pool: a few serial queues (one per core, at least two). Each operation is pinned
/// to one queue, so its partial decodes, final decode and callbacks run in order and off the
/// network thread, and no more than `count` decodes run at once.
enum DecodeQueues {
    static let count = max(2, ProcessInfo.processInfo.activeProcessorCount)
    private static let queues: [DispatchQueue] = (0..<count).map {
        DispatchQueue(label: "sdgallery.decode.\($0)", qos: .userInitiated)
    }
    private static let next = AtomicCounter()

    /// The queue for a new operation (round robin).
    static func lane() -> DispatchQueue { queues[next.increment() % count] }
}
