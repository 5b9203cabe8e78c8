import SafeText
import Foundation
import ImageCodecs

/// The decoders a download operation uses; injectable so tests can use deterministic fakes.
public struct ImageDecoding: Sendable {
    /// One-shot decode of complete bytes. Should throw `DecodeError`.
    public var decode: @Sendable (Data, DecodeOptions) throws -> Image
    /// A fresh incremental decoder for progressive loading.
    public var makeIncrementalDecoder: @Sendable (DecodeOptions) -> any IncrementalDecoding
    /// Whether a body starting with these bytes (at least 16 of them) can be shown partially. When
    /// not, a progressive download stops feeding the incremental decoder and decodes once at the
    /// end: the decoder would only keep a second copy of the body.
    public var rendersPartially: @Sendable (Data) -> Bool

    /// Creates a decoder set. `rendersPartially` defaults to always (every byte goes to the
    /// incremental decoder).
    public init(
        decode: @escaping @Sendable (Data, DecodeOptions) throws -> Image,
        makeIncrementalDecoder: @escaping @Sendable (DecodeOptions) -> any IncrementalDecoding,
        rendersPartially: @escaping @Sendable (Data) -> Bool = { _ in true }
    ) {
        self.decode = decode
        self.makeIncrementalDecoder = makeIncrementalDecoder
        self.rendersPartially = rendersPartially
    }

    /// The real codecs (`ImageCoders`): JPEG and PNG render partially; a GIF goes to the incremental
    /// decoder too (an interlaced first pass can be final early) but decodes at the end, as WebP and
    /// anything that is not an image do.
    public static let standard = ImageDecoding(
        decode: { data, options in try ImageCoders.decode(data, options: options) },
        makeIncrementalDecoder: { options in ImageCoders.makeIncrementalDecoder(options: options) },
        rendersPartially: { head in
            let format = ImageFormat.sniff(head.prefix(16))
            return format == .jpeg || format == .png || format == .gif
        })

    /// Runs `body`, turning any non-`DecodeError` into `.corrupt`.
    static func typed(_ body: () throws -> Image) -> Result<Image, DecodeError> {
        do { return .success(try body()) } catch let error as DecodeError {
            return .failure(error)
        } catch {
            return .failure(.corrupt(format: "unknown", reason: UntrustedText.sanitize("\(error)")))
        }
    }
}
