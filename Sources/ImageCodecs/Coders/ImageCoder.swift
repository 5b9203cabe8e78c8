import Foundation

/// What a coder can do. The pipeline asks for these instead of switching on the format
/// (`ImageCoderRegistry`).
public struct ImageCoderCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Decodes straight to a smaller size (a JPEG's DCT scale, libwebp's scaler, a vector render)
    /// instead of decoding at full size and scaling after.
    public static let scaledDecode = ImageCoderCapabilities(rawValue: 1 << 0)
    /// Shows partial images while bytes arrive (`IncrementalDecoding.partialImage`): rows so far,
    /// completed progressive scans or passes.
    public static let progressive = ImageCoderCapabilities(rawValue: 1 << 1)
    /// Can say, before the end, that the bytes so far already hold the final image at the target
    /// (`IncrementalDecoding.sufficientImage`): the download stops there.
    public static let earlyStop = ImageCoderCapabilities(rawValue: 1 << 2)
    /// Decodes animations (frames and their durations).
    public static let animation = ImageCoderCapabilities(rawValue: 1 << 3)
    /// A vector format: rendered at the size asked for, sharp at any size.
    public static let vector = ImageCoderCapabilities(rawValue: 1 << 4)

    /// Names for `--version` and the docs ("scaled", "progressive", …).
    public var names: [String] {
        [(Self.scaledDecode, "scaled"), (.progressive, "progressive"), (.earlyStop, "early stop"), (.animation, "animation"), (.vector, "vector")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// One format's decoder (SDWebImage's `SDImageCoder`): a one-shot decode, and, for formats that can
/// show or finish an image before their last byte, a streaming session.
///
/// A coder decodes to RGBA8 with straight alpha at `options.targetSize` (aspect kept, never
/// upscaled), checks `options.pixelLimit` before allocating pixels, reserves its working memory from
/// `options.memory`, applies the image's orientation and throws only `DecodeError`.
public protocol ImageCoder: Sendable {
    /// The format this coder decodes (`ImageFormat.sniff` picks the coder).
    var format: ImageFormat { get }
    /// The media type a server names the format by ("image/jpeg"): the `Accept` header lists it.
    var mediaType: String { get }
    /// What this coder can do.
    var capabilities: ImageCoderCapabilities { get }
    /// The extensions files of this format go by ("jpg", "jpeg", "jpe"): a folder's walk takes the
    /// files named so (the bytes still decide the format).
    var fileExtensions: [String] { get }
    /// Decodes complete bytes.
    func decode(_ data: Data, options: DecodeOptions) throws -> Image
    /// A session fed the bytes as they arrive, or nil for a coder that decodes once at the end
    /// (the bytes are then kept and given to `decode`). The session holds no copy of its bytes once
    /// `started`; one `refused` by the memory budget is dropped and the bytes decoded one-shot.
    func makeSession(options: DecodeOptions) throws -> (any CoderSession)?
    /// For a coder without a session: an image final at the target from the bytes so far (an
    /// interlaced GIF's first pass), or nil. Asked again only once the bytes doubled.
    func sufficientImage(buffered: Data, options: DecodeOptions) -> Image?
    /// Every byte is in but no session could run (memory was short): decode, stopping at the first
    /// image final at the target where the format allows (a progressive JPEG's DC scans).
    func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image
}

extension ImageCoder {
    public var fileExtensions: [String] { format.fileExtension.map { [$0] } ?? [] }
    public func makeSession(options: DecodeOptions) throws -> (any CoderSession)? { nil }
    public func sufficientImage(buffered: Data, options: DecodeOptions) -> Image? { nil }
    public func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image { try decode(data, options: options) }
}

/// A coder's streaming decode (`ImageCoder.makeSession`), driven by `SniffingDecoder`.
public protocol CoderSession: AnyObject {
    /// Feeds the next bytes.
    func append(_ chunk: Data)
    /// The best image so far, at the target size, or nil.
    func partialImage() -> Image?
    /// An image final at the target from the bytes so far, its `earlyTier` set; nil before.
    func sufficientImage() -> Image?
    /// `sufficientImage()` has an image to give, known without making it (see
    /// `IncrementalDecoding.hasSufficientBytes`); false when the session cannot tell so cheaply.
    var hasSufficientBytes: Bool { get }
    /// All bytes are in: the final image, or the error.
    func finish() throws -> Image
    /// The header is in and the working memory held (or the data failed): its bytes need no copy.
    var started: Bool { get }
    /// The memory did not fit: the session stopped, its bytes are to be decoded one-shot.
    var refused: Bool { get }
}

extension CoderSession {
    /// Sessions whose `sufficientImage()` is cheap (or already made) do not tell beforehand.
    public var hasSufficientBytes: Bool { false }

    /// Feeds all of `data` in steps (`SniffingDecoder.retryStep`) and returns the first image `final`
    /// has between two steps, else the end's (`ImageCoder.decodeStoppingEarly`).
    func feed(_ data: Data, until final: () -> Image?) throws -> Image {
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + SniffingDecoder.retryStep)
            append(data.subdata(in: offset..<end))
            offset = end
            if let image = final() { return image }
        }
        return try finish()
    }
}
