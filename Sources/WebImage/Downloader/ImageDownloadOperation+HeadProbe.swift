import Foundation
import ImageCodecs

/// A JPEG for a small cell asks for its first 64 KB first (`Range: bytes=0-65535`): its EXIF
/// thumbnail, when it has every pixel the cell shows, is the cell's image and the transfer stops
/// there (`stopIfSufficient`). Otherwise the same operation continues with `If-Range` (the
/// kept-partial path) up to 512 KB — a progressive file's DC scans, decided the same way once they
/// are in, however fast the link (streaming, the whole body can arrive before the decoder looks) —
/// then, for a progressive file, in windows each half again the bytes so far (its 1/4 or 1/2
/// scans), and then to the end: a few extra requests, never a byte twice.
/// A server that ignores `Range` sends the whole file (a 200), which is then read as usual.
extension ImageDownloadOperation {
    /// Bytes the head probe asks for, and where the second window ends (the later ones grow by half).
    static let headProbeLength = 65_536
    static let secondWindowEnd: Int64 = 524_288

    /// Whether this transfer should be a head probe: the first attempt, not a revalidation, a URL
    /// naming a JPEG, and every handler taking an image final at a target size.
    func wantsHeadProbe(_ state: State) -> Bool {
        guard !state.probed, !setup.isConditional, ["jpg", "jpeg"].contains(url.pathExtension.lowercased()) else { return false }
        let handlers = state.handlers.values
        return !handlers.isEmpty && handlers.allSatisfy { $0.stopsWhenSufficient && $0.decodeOptions.targetSize != nil }
    }

    /// The probe's answer: a 206 of the head (`bytes 0-N/total`) reads as the start of the whole
    /// 200 (`Content-Length: total`); a 200 means the server ignored `Range`. False: an answer that
    /// cannot be read so (the attempt is abandoned and the plain request sent).
    static func readProbeAnswer(_ response: inout DownloadResponse, state: inout State) -> Bool {
        guard state.probing, state.resuming == nil else { return true }
        guard response.statusCode == 206 else {
            state.probing = false
            return true
        }
        guard response.headers["content-encoding"] == nil,
              let range = response.headers["content-range"]?.trimmingCharacters(in: .whitespaces),
              range.hasPrefix("bytes 0-"), let slash = range.lastIndex(of: "/"),
              let total = Int(range[range.index(after: slash)...]), total > 0,
              range == "bytes 0-\(min(headProbeLength, total) - 1)/\(total)" else {
            state.probing = false
            return false
        }
        response.statusCode = 200
        response.headers["content-range"] = nil
        response.headers["content-length"] = String(total)
        return true
    }

    /// Where a resumed progressive JPEG's first window ends when every handler stops once its image
    /// is final (64 KB past the bytes kept; the windows after it grow by half): the kept bytes (a
    /// cell's scans, from an earlier run) often hold the image already, and a fast link would
    /// otherwise stream the rest of the file before the decoder looks. Nil: resume to the end.
    func resumeWindowEnd(_ partial: PartialDownload) -> Int64? {
        let handlers = state.withLock { Array($0.handlers.values) }
        guard !setup.isConditional, !handlers.isEmpty, handlers.allSatisfy({ $0.stopsWhenSufficient && $0.decodeOptions.targetSize != nil }),
              JPEGHead.isProgressive(partial.data) else { return nil }
        let kept = Int64(partial.data.count)
        let end = kept + Int64(Self.headProbeLength)
        return partial.totalLength > end ? end : nil
    }

    /// Network thread, the probe's body ended: on the lane, the decoder gets the head's last bytes
    /// and decides (`stopIfSufficient`); when the head is not enough, the operation continues from
    /// where it stopped (`Range` + `If-Range`; without a validator, the plain request). False when
    /// this was no unfinished probe.
    func continueAfterProbe() -> Bool {
        let step = state.withLock { state -> (rest: Data, quick: PartialDownload??)? in
            guard state.phase == .running, state.probing else { return nil }
            state.probing = false
            guard let length = state.response?.headers["content-length"].flatMap({ Int($0) }), state.data.count < length else { return nil }
            // A baseline head without an EXIF thumbnail cannot be enough: continue at once, here,
            // rather than after the decode lane (busy with other images) has looked at it.
            if state.offset == 0, !JPEGHead.mayStopEarly(state.data) {
                let partial = PartialDownload(data: state.data, response: state.response)
                Self.resetAttempt(&state)
                // Without partial images to show, nothing is gained by decoding as the bytes come:
                // the end decodes in one shot (cheaper than feeding libjpeg chunk by chunk).
                if !isProgressive { state.rendersPartially = false }
                return (Data(), .some(partial))
            }
            defer { state.undecoded = Data() }
            return (state.undecoded, nil)
        }
        guard let step else { return false }
        if let quick = step.quick {
            forgetDecodedBytes()  // the continuation feeds it from byte 0
            if let partial = quick { launch(resuming: partial) } else { restartTransfer() }
            return true
        }
        let rest = step.rest
        lane.async { [self] in
            let decoder = incrementalDecoder()
            decoder.append(rest)
            if stopIfSufficient(decoder) { return }
            let next = state.withLock { state -> PartialDownload?? in
                guard state.phase == .running else { return nil }
                let partial = PartialDownload(data: state.data, response: state.response)
                Self.resetAttempt(&state)
                return .some(partial)
            }
            guard let next else { return }
            guard let partial = next else {
                decoderBox.decoder = nil
                return restartTransfer()
            }
            // Only a progressive file's scans can be worth another window: its DC scans (1/8) within
            // 512 KB, its 1/4 or 1/2 scans further in; each window half again the bytes so far.
            let end = max(Self.secondWindowEnd, Int64(partial.data.count) * 3 / 2)
            let windowed = partial.totalLength > end && JPEGHead.isProgressive(partial.data)
            state.withLock { $0.decoderHasPartial = true }  // the decoder has every byte so far: it goes on from here
            launch(resuming: partial, through: windowed ? end : nil)
        }
        return true
    }
}
