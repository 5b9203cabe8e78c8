import Foundation
import ImageCodecs

/// Stopping a transfer once the cell's pixels are known (`.stopWhenSufficient`).
extension ImageDownloadOperation {
    /// Lane: when every handler takes an image final at its size, all at the primary decode size,
    /// and the decoder has one from the bytes so far, the transfer stops here: its body so far is
    /// kept for a `Range` request later (`PartialDownloadStore`), and every handler gets the image
    /// as final (`isWholeBody == false`). False when the transfer goes on — also when the rest of the
    /// body is too small to cut off (`readsToEnd`: the whole file is decoded at the end).
    ///
    /// A decoder that knows before it makes the image (`hasSufficientBytes`: a JPEG XL's DC, whose
    /// flush and scaling take 0.2 s for 12 MP, a fifth of a second of a 1 MB/s link) has the transfer
    /// stopped first (true from here on). The image is then made off the decode pool
    /// (`DecodeQueues.imaging`), so that other loads' lanes watching for their own stop do not queue
    /// behind it (two such flushes held both threads of a 2-core machine's pool for 0.3–0.9 s), and
    /// back on the lane it is delivered as above; should it not come (or the handlers changed
    /// meanwhile), the transfer goes on from where it stopped, as after a cut at the needed bytes
    /// (`continueAfterCut`).
    func stopIfSufficient(_ decoder: any IncrementalDecoding) -> Bool {
        guard allHandlersStop() else { return false }
        guard decoder.hasSufficientBytes && haltTransfer() else {
            guard let image = decoder.sufficientImage() else { return false }
            return take(image)
        }
        // The decoder leaves the lane for the making of the image and comes back with it.
        let held = DecoderBox()
        held.decoder = decoder
        decoderBox.decoder = nil
        DecodeQueues.imaging.async { [self] in
            let image = held.decoder?.sufficientImage()
            lane.async { [self] in
                if let image, take(image) { return }
                guard state.withLock({ $0.phase == .running }) else { return }  // cancelled meanwhile
                decoderBox.decoder = held.decoder
                continueAfterCut()
            }
        }
        return true
    }

    /// Every handler takes an image final at its size, all at the primary decode size.
    private func allHandlersStop() -> Bool {
        let primary = setup.decodeOptions
        let handlers = currentHandlers
        return !handlers.isEmpty && handlers.allSatisfy { $0.stopsWhenSufficient && $0.decodeOptions == primary }
    }

    /// Lane: ends the transfer with `image` (see `stopIfSufficient`); false when it is not the
    /// handlers' (any more), or the transfer already ended or reads to the end.
    private func take(_ image: Image) -> Bool {
        guard allHandlersStop() else { return false }
        let handlers = currentHandlers
        let taken = state.withLock { state -> (transfer: CurlTransfer, data: Data, response: DownloadResponse, partial: PartialDownload?)? in
            guard state.phase == .running, !state.readsToEnd, let transfer = state.transfer, let response = state.response else { return nil }
            let data = state.data
            let partial = Self.takePartial(&state)
            state.phase = .finished
            state.transfer = nil
            state.partialInFlight = false
            return (transfer, data, response, partial)
        }
        guard let taken else { return false }
        if let partial = taken.partial { setup.partials?.keep(partial, for: url) }
        setup.session.cancel(taken.transfer)
        setup.events.post(.stopped(url))
        decoderBox.decoder = nil
        setup.onFinish(self)
        var result = DownloadResult(url: url, image: image, data: taken.data, response: taken.response, isFinished: true)
        result.isWholeBody = false
        for handler in handlers {
            deliver(to: handler.id) { handler.completion(.success(result)) }
        }
        state.withLock { $0.handlers.removeAll() }
        return true
    }

    /// Lane: stops the running transfer's bytes (the operation keeps running, `halted`: `take` ends
    /// it or `continueAfterCut` goes on). False when there is none to stop, its rest is read to the end
    /// anyway (`readsToEnd`), or an early stop already failed to give the image (`cutFailed`: the
    /// transfer goes to the end, stopping only for an image in hand).
    private func haltTransfer() -> Bool {
        let transfer = state.withLock { state -> CurlTransfer? in
            guard state.phase == .running, !state.readsToEnd, !state.cutFailed, let transfer = state.transfer else { return nil }
            state.halted = true
            return transfer
        }
        guard let transfer else { return false }
        setup.session.cancel(transfer)
        return true
    }
}
