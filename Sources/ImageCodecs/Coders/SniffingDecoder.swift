import Foundation

/// The incremental decoder `ImageCoders` hands out: holds the first bytes until the format is known
/// (16 bytes or `finish()`), then asks the format's coder (`ImageCoderRegistry`) for a streaming
/// session, or keeps the bytes for a one-shot decode at the end (a coder without a session, and
/// anything else, which then fails with a clear error; such a coder can still name an image final
/// before the end, `ImageCoder.sufficientImage(buffered:options:)`). A session keeps a copy of its
/// bytes until its header has reserved the working memory (`DecodeMemory`); one whose memory does
/// not fit then is dropped for that copy, tried again as more bytes come, and decoded one-shot at
/// the end if it never fits (`ImageCoder.decodeStoppingEarly`).
final class SniffingDecoder: IncrementalDecoding {
    private enum Stage {
        case sniffing(Data)
        /// `kept`: every byte so far, until the session has its memory.
        case streaming(any CoderSession, kept: Data?)
        case buffering(Data)
        /// A session's memory did not fit the budget: the bytes wait, and a new session tries again
        /// once they doubled, or `retryStep` more came (so an image can still stop early once memory
        /// frees).
        case waiting(Data, triedAt: Int)
        case failed(DecodeError)
    }

    private static let sniffLength = 16
    /// Bytes between two tries of a session whose memory did not fit.
    static let retryStep = 65_536
    private let options: DecodeOptions
    private var stage: Stage = .sniffing(Data())
    /// The coder of the sniffed format, nil before or when none decodes it.
    private var coder: (any ImageCoder)?
    /// Bytes a buffered coder had when its early image was last looked for (`sufficientImage`).
    private var bufferedTriedAt = 0

    init(options: DecodeOptions) { self.options = options }

    func append(_ chunk: Data) {
        switch stage {
        case .sniffing(var head):
            head.append(chunk)
            if head.count >= Self.sniffLength { start(with: head) } else { stage = .sniffing(head) }
        case .streaming(let session, var kept):
            session.append(chunk)
            guard kept != nil else { break }
            stage = .failed(.empty)  // drop the reference so the append does not copy
            kept?.append(chunk)
            stage = Self.settled(session, kept: kept ?? Data())
        case .buffering(var data):
            stage = .failed(.empty)  // drop the reference so the append does not copy
            data.append(chunk)
            stage = .buffering(data)
        case .waiting(var data, let triedAt):
            stage = .failed(.empty)
            data.append(chunk)
            if data.count >= triedAt + min(Self.retryStep, max(4096, triedAt)) { start(with: data) } else { stage = .waiting(data, triedAt: triedAt) }
        case .failed: break
        }
    }

    func partialImage() -> Image? {
        guard case .streaming(let session, _) = stage else { return nil }
        return session.partialImage()
    }

    func sufficientImage() -> Image? {
        switch stage {
        case .streaming(let session, _): return session.sufficientImage()
        case .buffering(let data) where data.count >= bufferedTriedAt * 2:
            // Parsed from the start each time: looked at again only once the bytes doubled.
            bufferedTriedAt = data.count
            return coder?.sufficientImage(buffered: data, options: options)
        default: return nil
        }
    }

    var hasSufficientBytes: Bool {
        guard case .streaming(let session, _) = stage else { return false }
        return session.hasSufficientBytes
    }

    func finish() throws -> Image {
        if case .sniffing(let head) = stage { start(with: head) }
        switch stage {
        case .streaming(_, let kept?): return try ImageCoders.decode(kept, options: options)
        case .streaming(let session, nil): return try session.finish()
        case .buffering(let data): return try ImageCoders.decode(data, options: options)
        case .waiting(let data, _): return try Self.decodeStoppingEarly(data, options: options)
        case .failed(let error): throw error
        case .sniffing: throw DecodeError.empty
        }
    }

    /// Every byte is in but no session ran (memory was short): the coder's own way to stop at the
    /// first image final at the target (`ImageCoder.decodeStoppingEarly`), else one-shot.
    static func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image {
        let format = ImageFormat.sniff(data)
        guard let coder = ImageCoderRegistry.coder(for: format) else { return try ImageCoders.decode(data, options: options) }
        var image = try coder.decodeStoppingEarly(data, options: options)
        image.sourceFormat = format
        image.sourceByteCount = data.count
        return image
    }

    /// A session's stage once it has `kept` bytes: the copy dropped once the session has its memory,
    /// the session dropped for the copy when its memory did not fit.
    private static func settled(_ session: any CoderSession, kept: Data) -> Stage {
        if session.refused { return .waiting(kept, triedAt: kept.count) }
        return .streaming(session, kept: session.started ? nil : kept)
    }

    /// Picks the coder for the bytes seen so far and feeds them to its session, or keeps them.
    private func start(with head: Data) {
        do {
            coder = ImageCoderRegistry.coder(for: ImageFormat.sniff(head))
            if let session = try coder?.makeSession(options: options) {
                session.append(head)
                stage = Self.settled(session, kept: head)
            } else {
                stage = .buffering(head)
            }
        } catch let error as DecodeError {
            stage = .failed(error)
        } catch {
            stage = .failed(.corrupt(format: "image", reason: "\(error)"))
        }
    }
}
