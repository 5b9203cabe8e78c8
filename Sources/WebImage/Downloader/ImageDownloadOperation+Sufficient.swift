import Foundation
import ImageCodecs

/// Stopping a transfer once the cell's pixels are known (`.stopWhenSufficient`).
extension ImageDownloadOperation {
    /// Lane: when every handler takes an image final at its size, all at the primary decode size,
    /// and the decoder has one from the bytes so far, the transfer stops here: its body so far is
    /// kept for a `Range` request later (`PartialDownloadStore`), and every handler gets the image
    /// as final (`isWholeBody == false`). False when the transfer goes on — also when the rest of the
    /// body is too small to cut off (`readsToEnd`: the whole file is decoded at the end).
    func stopIfSufficient(_ decoder: any IncrementalDecoding) -> Bool {
        let primary = setup.decodeOptions
        let handlers = currentHandlers
        guard !handlers.isEmpty, handlers.allSatisfy({ $0.stopsWhenSufficient && $0.decodeOptions == primary }),
              let image = decoder.sufficientImage() else { return false }
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
}
