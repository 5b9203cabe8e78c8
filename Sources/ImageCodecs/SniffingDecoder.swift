import Foundation

/// The incremental decoder `ImageCoders` hands out: holds the first bytes until the format is known
/// (16 bytes or `finish()`), then streams into a JPEG or PNG session, or keeps the bytes for a
/// one-shot decode at the end (GIF, WebP, and anything else, which then fails with a clear error;
/// an interlaced GIF's first pass can be final before, `GIFDecoder.firstPass`). A session keeps a
/// copy of its bytes until its header has reserved the working memory (`DecodeMemory`); one whose
/// memory does not fit then is dropped for that copy, tried again as more bytes come, and
/// decoded one-shot at the end if it never fits.
final class SniffingDecoder: IncrementalDecoding {
    private enum Stage {
        case sniffing(Data)
        /// `kept`: every byte so far, until the session has its memory.
        case jpeg(JPEGSession, kept: Data?)
        case png(PNGSession, kept: Data?)
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
    /// Bytes a GIF had when its first pass was last looked for (`sufficientImage`).
    private var gifTriedAt = 0

    init(options: DecodeOptions) { self.options = options }

    func append(_ chunk: Data) {
        switch stage {
        case .sniffing(var head):
            head.append(chunk)
            if head.count >= Self.sniffLength { start(with: head) } else { stage = .sniffing(head) }
        case .jpeg(let session, var kept):
            session.append(chunk)
            guard kept != nil else { break }
            stage = .failed(.empty)  // drop the reference so the append does not copy
            kept?.append(chunk)
            stage = Self.settled(session, kept: kept ?? Data()) { .jpeg($0, kept: $1) }
        case .png(let session, var kept):
            session.append(chunk)
            guard kept != nil else { break }
            stage = .failed(.empty)
            kept?.append(chunk)
            stage = Self.settled(session, kept: kept ?? Data()) { .png($0, kept: $1) }
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
        switch stage {
        case .jpeg(let session, _): return session.partialImage()
        case .png(let session, _): return session.partialImage()
        default: return nil
        }
    }

    func sufficientImage() -> Image? {
        switch stage {
        case .jpeg(let session, _):
            if let thumbnail = session.exifThumbnailImage() { return thumbnail.tiered(.exifThumbnail) }
            return session.sufficientImage()?.tiered(.scale(denominator: session.scaleDenominator))
        case .png(let session, _): return session.sufficientImage()?.tiered(.firstPass)
        case .buffering(let data) where data.count >= gifTriedAt * 2 && ImageFormat.sniff(data) == .gif:
            // Parsed from the start each time: looked at again only once the bytes doubled.
            gifTriedAt = data.count
            return GIFDecoder.firstPass(data, options: options)?.tiered(.firstPass)
        default: return nil
        }
    }

    func finish() throws -> Image {
        if case .sniffing(let head) = stage { start(with: head) }
        switch stage {
        case .jpeg(_, let kept?), .png(_, let kept?): return try ImageCoders.decode(kept, options: options)
        case .jpeg(let session, nil): return try session.finish()
        case .png(let session, nil): return try session.finish()
        case .buffering(let data): return try ImageCoders.decode(data, options: options)
        case .waiting(let data, _): return try Self.decodeStoppingEarly(data, options: options)
        case .failed(let error): throw error
        case .sniffing: throw DecodeError.empty
        }
    }

    /// Every byte is in but no session ran (memory was short): a JPEG is fed to a session in steps,
    /// its reservation waiting for room now, and ends at its first image final at the target (a
    /// progressive file's DC scans: a one-shot decode would read every scan); else one-shot.
    static func decodeStoppingEarly(_ data: Data, options: DecodeOptions) throws -> Image {
        guard ImageFormat.sniff(data) == .jpeg else { return try ImageCoders.decode(data, options: options) }
        let session = try JPEGSession(options: options, incremental: true, waitsForMemory: true)
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + retryStep)
            session.append(data.subdata(in: offset..<end))
            offset = end
            if var final = session.sufficientImage() {
                final.sourceFormat = .jpeg
                final.sourceByteCount = data.count
                return final
            }
        }
        var image = try session.finish()
        image.sourceFormat = .jpeg
        image.sourceByteCount = data.count
        return image
    }

    /// A session's stage once it has `kept` bytes: the copy dropped once the session has its memory,
    /// the session dropped for the copy when its memory did not fit.
    private static func settled<Session: MemoryGatedSession>(_ session: Session, kept: Data, _ stage: (Session, Data?) -> Stage) -> Stage {
        if session.refused { return .waiting(kept, triedAt: kept.count) }
        return stage(session, session.started ? nil : kept)
    }

    /// Picks the decoder for the bytes seen so far and feeds them to it.
    private func start(with head: Data) {
        do {
            switch ImageFormat.sniff(head) {
            case .jpeg:
                let session = try JPEGSession(options: options, incremental: true)
                session.append(head)
                stage = Self.settled(session, kept: head) { .jpeg($0, kept: $1) }
            case .png:
                let session = try PNGSession(options: options, incremental: true)
                session.append(head)
                stage = Self.settled(session, kept: head) { .png($0, kept: $1) }
            default:
                stage = .buffering(head)
            }
        } catch let error as DecodeError {
            stage = .failed(error)
        } catch {
            stage = .failed(.corrupt(format: "image", reason: "\(error)"))
        }
    }
}

private extension Image {
    /// This image marked as the early image of `tier`.
    func tiered(_ tier: EarlyTier) -> Image {
        var image = self
        image.earlyTier = tier
        return image
    }
}

/// A streaming session that reserves its working memory once its header is in (`DecodeMemory`).
protocol MemoryGatedSession: AnyObject {
    /// The header is in and the memory held (or the data failed): its bytes need no copy.
    var started: Bool { get }
    /// The memory did not fit: the session stopped, its bytes are to be decoded one-shot.
    var refused: Bool { get }
}

extension JPEGSession: MemoryGatedSession {}
extension PNGSession: MemoryGatedSession {}
