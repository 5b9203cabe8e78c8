import Foundation
import ImageCodecs

/// A transfer for handlers that each take an image final at a target size stops at the last byte
/// that image needs (`NeededBytes`, read from the markers on the network thread as the bytes arrive):
/// a progressive JPEG's scans for the cell's scale, a JPEG's headers when its EXIF thumbnail covers the
/// cell. One request per image, however fast the link and however far behind the decode lane is;
/// the bytes kept (`PartialDownloadStore`) are resumed with `Range` + `If-Range` by a later, larger
/// load. When the rest of the body is small it is read to the end and decoded whole instead (closing
/// an HTTP/1.1 connection to skip it would cost the next request a new one; `readsToEnd` keeps the
/// decode lane's `stopIfSufficient` from stopping it too); when the needed bytes turn
/// out not to give the image (the decoder disagrees or fails), the transfer goes on from where it
/// stopped. A JPEG that needs every byte and nobody watches partially (`--print`) decodes in one shot
/// at the end (cheaper than feeding libjpeg chunk by chunk).
extension ImageDownloadOperation {
    /// A rest of the body shorter than this is read rather than cut off.
    static let smallestCutRest: Int64 = 65_536

    /// Whether the transfer starting now watches for its needed bytes: not a revalidation, not a
    /// continuation after a cut that did not give the image, and every handler takes an image final
    /// at a target size.
    func watchesNeededBytes(_ state: State) -> Bool {
        guard !setup.isConditional, !state.cutFailed, decodesIncrementally, let box = setup.decodeOptions.targetSize else { return false }
        let handlers = state.handlers.values
        return !handlers.isEmpty && handlers.allSatisfy { $0.stopsWhenSufficient && $0.decodeOptions.targetSize == box }
    }

    /// Network thread, the lock held, after a chunk was appended to `state.data`: reads it for the
    /// needed bytes. Returns the bytes to hand the decoder when the transfer stops here (the body cut
    /// to the needed bytes, the transfer to cancel), nil otherwise.
    func watchNeededBytes(_ chunk: Data, state: inout State) -> (transfer: CurlTransfer, rest: Data)? {
        guard var needed = state.needed else { return nil }
        needed.append(chunk)
        switch needed.verdict {
        case .undecided:
            state.needed = needed
            return nil
        case .all:
            state.needed = nil
            // Nobody watches partial images: the end decodes in one shot (the decoder fed so far is
            // dropped then). NeededBytes reads JPEG markers only: for another format whose coder can
            // stop early (a JPEG XL's DC) its `.all` says nothing, and the decoder stays.
            let format = ImageFormat.sniff(state.data.prefix(16))
            let stopsEarly = format != .jpeg && ImageCoderRegistry.coder(for: format)?.capabilities.contains(.earlyStop) == true
            if !isProgressive, !stopsEarly, state.rendersPartially != false {
                state.rendersPartially = false
                state.undecoded = Data()
            }
            return nil
        case .prefix(let count, _):
            guard state.data.count >= count else {
                state.needed = needed
                return nil
            }
            state.needed = nil
            let total = state.response?.headers["content-length"].flatMap { Int64($0) }
            if let total, total - Int64(count) < Self.smallestCutRest {
                state.readsToEnd = true
                return nil
            }
            guard let transfer = state.transfer, state.rendersPartially != false else { return nil }
            let excess = state.data.count - count
            state.data.removeLast(excess)
            state.undecoded.removeLast(min(excess, state.undecoded.count))
            defer { state.undecoded = Data() }
            state.partialInFlight = true
            return (transfer, state.undecoded)
        }
    }

    /// Lane: the transfer stopped at the needed bytes; the decoder gets the last of them and the
    /// image is delivered as final (`stopIfSufficient`). When it is not there, the same operation
    /// goes on from the cut to the end (`continueAfterCut`).
    func finishCut(appending bytes: Data) {
        guard state.withLock({ $0.phase == .running }) else { return }
        let decoder = incrementalDecoder()
        decoder.append(bytes)
        if stopIfSufficient(decoder) { return }
        continueAfterCut()
    }

    /// Lane: a transfer stopped early did not give the image: the decoder gets the bytes it has not
    /// seen, and the same operation goes on from the stop to the end (`Range` + `If-Range`; without
    /// a validator, the plain request from the start with a fresh decoder).
    func continueAfterCut() {
        let next = state.withLock { state -> (partial: PartialDownload?, unseen: Data)? in
            guard state.phase == .running else { return nil }
            let partial = PartialDownload(data: state.data, response: state.response)
            let unseen = state.undecoded
            Self.resetAttempt(&state)
            state.cutFailed = true
            state.decoderHasPartial = partial != nil
            return (partial, unseen)
        }
        guard let next else { return }
        guard let partial = next.partial else {
            decoderBox.decoder = nil
            return restartTransfer()
        }
        if !next.unseen.isEmpty { incrementalDecoder().append(next.unseen) }
        launch(resuming: partial)
    }
}
