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

    /// The real codecs (`ImageCoders`): a format whose coder shows partial images or can stop early
    /// (`ImageCoderCapabilities`) is fed to the incremental decoder; the rest (and anything that is
    /// not an image) decode once at the end.
    public static let standard = ImageDecoding(
        decode: { data, options in try ImageCoders.decode(data, options: options) },
        makeIncrementalDecoder: { options in ImageCoders.makeIncrementalDecoder(options: options) },
        rendersPartially: { head in
            let format = ImageFormat.sniff(head.prefix(16))
            guard let coder = ImageCoderRegistry.coder(for: format) else { return false }
            return !coder.capabilities.isDisjoint(with: [.progressive, .earlyStop])
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
