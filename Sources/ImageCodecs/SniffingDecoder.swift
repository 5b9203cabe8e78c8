import Foundation

/// The incremental decoder `ImageCoders` hands out: holds the first bytes until the format is known
/// (16 bytes or `finish()`), then streams into a JPEG or PNG session, or keeps the bytes for a
/// one-shot decode at the end (GIF, WebP, and anything else, which then fails with a clear error;
/// an interlaced GIF's first pass can be final before, `GIFDecoder.firstPass`).
final class SniffingDecoder: IncrementalDecoding {
    private enum Stage {
        case sniffing(Data)
        case jpeg(JPEGSession)
        case png(PNGSession)
        case buffering(Data)
        case failed(DecodeError)
    }

    private static let sniffLength = 16
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
        case .jpeg(let session): session.append(chunk)
        case .png(let session): session.append(chunk)
        case .buffering(var data):
            stage = .failed(.empty)  // drop the reference so the append does not copy
            data.append(chunk)
            stage = .buffering(data)
        case .failed: break
        }
    }

    func partialImage() -> Image? {
        switch stage {
        case .jpeg(let session): return session.partialImage()
        case .png(let session): return session.partialImage()
        default: return nil
        }
    }

    func sufficientImage() -> Image? {
        switch stage {
        case .jpeg(let session):
            if let thumbnail = session.exifThumbnailImage() { return thumbnail.tiered(.exifThumbnail) }
            return session.sufficientImage()?.tiered(.scale(denominator: session.scaleDenominator))
        case .png(let session): return session.sufficientImage()?.tiered(.firstPass)
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
        case .jpeg(let session): return try session.finish()
        case .png(let session): return try session.finish()
        case .buffering(let data): return try ImageCoders.decode(data, options: options)
        case .failed(let error): throw error
        case .sniffing: throw DecodeError.empty
        }
    }

    /// Picks the decoder for the bytes seen so far and feeds them to it.
    private func start(with head: Data) {
        do {
            switch ImageFormat.sniff(head) {
            case .jpeg:
                let session = try JPEGSession(options: options, incremental: true)
                session.append(head)
                stage = .jpeg(session)
            case .png:
                let session = try PNGSession(options: options)
                session.append(head)
                stage = .png(session)
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
