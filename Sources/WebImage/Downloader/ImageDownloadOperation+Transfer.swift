import Foundation
import ImageCodecs

/// Network-thread events → bytes, progress, partial images, the final image.
extension ImageDownloadOperation {
    /// A resumed transfer's `206` that continues its partial body restores the bytes (the
    /// incremental decoder gets them all from the start) and is seen as the whole `200` from here
    /// on; a `200` (a changed validator or no ranges) starts over. A `206` that does not continue
    /// the kept bytes (another start or total, no `Content-Range`, an encoding) is abandoned: the
    /// partial is dropped and the plain request is sent again; handlers hear nothing of it (not the
    /// one transient retry).
    func didReceiveResponse(_ response: DownloadResponse) {
        var abandoned: CurlTransfer?
        var forgetDecoder = false
        let seen = state.withLock { state -> DownloadResponse? in
            guard state.phase == .running else { return nil }
            var response = response
            if let partial = state.resuming {
                state.resuming = nil
                let continued = partial.isContinued(by: response)
                if !continued, state.needed != nil { state.needed = NeededBytes(box: setup.decodeOptions.targetSize) }  // from byte 0
                if response.statusCode == 206, !continued {
                    abandoned = state.transfer
                    Self.resetAttempt(&state)
                    return nil
                }
                let fedAlready = state.decoderHasPartial
                state.decoderHasPartial = false
                if fedAlready && !continued { forgetDecoder = true }
                if continued {
                    state.data = partial.data
                    state.undecoded = fedAlready ? Data() : partial.data
                    state.offset = Int64(partial.data.count)
                    response.statusCode = 200
                    response.headers["content-range"] = nil
                    response.headers["content-length"] = String(partial.totalLength)
                }
            }
            state.response = response
            return response
        }
        if forgetDecoder && abandoned == nil { forgetDecodedBytes() }  // a 200 starts over
        if let abandoned {
            setup.session.cancel(abandoned)
            forgetDecodedBytes()
            restartTransfer()
        }
        if let seen { setup.events.post(.receivedResponse(url, statusCode: seen.statusCode)) }
    }

    /// Shortest time between two progress deliveries: a server dripping one byte per chunk made a
    /// callback (and a dispatch) per byte, keeping a core busy.
    static let progressInterval: Duration = .milliseconds(20)

    /// Network thread: keep the bytes, schedule progress callbacks (throttled, the last byte's always)
    /// and (throttled) a partial decode.
    func didReceive(_ chunk: Data, received: Int64, expected: Int64) {
        setup.statistics.noteBytes(chunk.count)
        let interval = setup.progressiveInterval
        let progressive = decodesIncrementally, partials = isProgressive
        typealias Work = (progress: [DownloadHandler], partial: Data?, render: Bool, offset: Int64, cut: (transfer: CurlTransfer, rest: Data)?)
        let work = state.withLock { state -> Work? in
            guard state.phase == .running else { return nil }
            if state.data.isEmpty, expected > 0 {
                state.data.reserveCapacity(Int(min(expected, max(setup.maxResponseBytes, Int64(chunk.count)))))
            }
            state.data.append(chunk)
            var partial: Data?
            var render = false
            if progressive, state.rendersPartially == nil, state.data.count >= 16 {
                state.rendersPartially = setup.decoding.rendersPartially(state.data)
                if state.rendersPartially == false {
                    state.undecoded = Data()
                    state.needed = nil
                }
            }
            if progressive, state.rendersPartially != false {
                state.undecoded.append(chunk)
                if let cut = watchNeededBytes(chunk, state: &state) { return ([], nil, false, state.offset, cut) }
                let now = ContinuousClock.now
                let due = partials && (state.lastPartial.map { now - $0 >= interval } ?? true)
                // A transfer that may stop once the image is final at its size feeds the decoder
                // every chunk (rendering a partial only at the interval), so it stops on time: a
                // 1/4 or 1/2 scale's scans can end megabytes in. The decoding is work the final
                // image needs anyway, done while the bytes arrive; a busy lane batches the chunks.
                let eager = state.handlers.values.contains { $0.stopsWhenSufficient }
                if !state.partialInFlight && (due || eager) {
                    state.partialInFlight = true
                    if due { state.lastPartial = now }
                    render = due
                    partial = state.undecoded
                    state.undecoded = Data()
                }
            }
            let now = ContinuousClock.now
            let last = expected > 0 && received >= expected
            guard last || state.lastProgress.map({ now - $0 >= Self.progressInterval }) ?? true else { return ([], partial, render, state.offset, nil) }
            state.lastProgress = now
            let progress = state.order.compactMap { state.handlers[$0] }.filter { $0.progress != nil }
            return (progress, partial, render, state.offset, nil)
        }
        guard let work else { return }
        if let cut = work.cut {
            setup.session.cancel(cut.transfer)  // no further bytes; `stopIfSufficient` ends it on the lane
            lane.async { [self] in finishCut(appending: cut.rest) }
            return
        }
        let url = self.url
        let received = received + work.offset, expected = expected > 0 ? expected + work.offset : expected
        if !work.progress.isEmpty {
            lane.async { [self] in
                for handler in work.progress {
                    deliver(to: handler.id) { handler.progress?(received, expected, url) }
                }
            }
        }
        if let bytes = work.partial {
            let render = work.render
            lane.async { [self] in decodePartial(appending: bytes, render: render) }
        }
    }

    /// Lane: feed the incremental decoder and (`render`) deliver a partial image to every handler.
    private func decodePartial(appending bytes: Data, render: Bool) {
        guard state.withLock({ $0.rendersPartially != false }) else { return state.withLock { $0.partialInFlight = false } }
        let decoder = incrementalDecoder()
        decoder.append(bytes)
        if stopIfSufficient(decoder) { return }
        let image = render ? decoder.partialImage() : nil
        let snapshot = state.withLock { state -> (Data, DownloadResponse?, Bool) in
            state.partialInFlight = false
            return (state.data, state.response, state.phase == .running)
        }
        guard let image, snapshot.2, let response = snapshot.1 else { return }
        let result = DownloadResult(url: url, image: image, data: snapshot.0, response: response, isFinished: false)
        for handler in currentHandlers {
            deliver(to: handler.id) { handler.completion(.success(result)) }
        }
    }

    func incrementalDecoder() -> any IncrementalDecoding {
        if let decoder = decoderBox.decoder { return decoder }
        let decoder = setup.decoding.makeIncrementalDecoder(setup.decodeOptions)
        decoderBox.decoder = decoder
        return decoder
    }

    /// Network thread: the transfer ended; decode and deliver on the lane. The slot is freed once
    /// the final decode is done, not now: a finished body waiting for a decode lane holds its bytes
    /// (megabytes for a photo), and freeing the slot at once let fast transfers pile up finished
    /// bodies faster than the lanes decode them (hundreds of MB over loopback).
    func didComplete(_ result: Result<DownloadResponse, DownloadError>) {
        if case .failure(let error) = result, retryIfTransient(error) { return }
        if case .success = result, restartIfSpliceFallsShort() { return }
        let outcome = state.withLock { state -> (data: Data, rest: Data, incremental: Bool, response: DownloadResponse?)? in
            // Stopped by the lane as it ended (`halted`): the decoder is away making the early image.
            guard state.phase == .running, !state.halted else { return nil }
            state.phase = .finished
            state.transfer = nil
            defer { state.undecoded = Data() }
            return (state.data, state.undecoded, state.rendersPartially != false, state.offset > 0 ? state.response : nil)
        }
        guard let outcome else { return }
        var final = result
        if case .success = result, let seen = outcome.response { final = .success(seen) }  // a resumed 206 as its 200
        let result = final
        setup.events.post(.stopped(url))
        if case .success = result { setup.events.post(.finished(url)) }
        lane.async { [self] in finish(result, data: outcome.data, rest: outcome.rest, incremental: outcome.incremental) }
    }

    /// Lane: final decode (once per distinct decode options), then the slot is freed (so bodies
    /// cannot pile up waiting for the decoders), then the last callback of each handler.
    /// `incremental`: the incremental decoder has every byte but `rest` (else decode `data` in one shot).
    private func finish(_ result: Result<DownloadResponse, DownloadError>, data: Data, rest: Data, incremental: Bool) {
        let handlers = currentHandlers
        if !incremental { decoderBox.decoder = nil }
        switch result {
        case .failure(let error):
            decoderBox.decoder = nil
            setup.onFinish(self)
            for handler in handlers { deliver(to: handler.id) { handler.completion(.failure(error)) } }
        case .success where handlers.isEmpty:
            // Every handler left while the body waited for the lane: nobody wants the image.
            decoderBox.decoder = nil
            setup.onFinish(self)
        case .success(let response):
            var decoded: [DecodeOptions: Result<Image, DecodeError>] = [:]
            let primary = setup.decodeOptions
            if decodesIncrementally && incremental {
                let decoder = incrementalDecoder()
                decoded[primary] = ImageDecoding.typed {
                    decoder.append(rest)
                    return try decoder.finish()
                }
                decoderBox.decoder = nil
            }
            for handler in handlers where decoded[handler.decodeOptions] == nil {
                decoded[handler.decodeOptions] = ImageDecoding.typed { try setup.decoding.decode(data, handler.decodeOptions) }
            }
            setup.onFinish(self)
            for handler in handlers {
                let image = decoded[handler.decodeOptions] ?? .failure(.empty)
                let delivery: Result<DownloadResult, DownloadError> = image
                    .map { DownloadResult(url: url, image: $0, data: data, response: response, isFinished: true) }
                    .mapError { .decodeFailed(url: url, reason: $0) }
                deliver(to: handler.id) { handler.completion(delivery) }
            }
        }
        state.withLock { $0.handlers.removeAll() }
    }

    /// A resumed body whose bytes do not add up to the whole length (a 206 whose body was shorter or
    /// longer than its `Content-Range`; before, it was cached as the image): the spliced bytes are
    /// dropped and the plain request is sent again (not counted as the retry).
    func restartIfSpliceFallsShort() -> Bool {
        let wrong = state.withLock { state -> Bool in
            guard state.phase == .running, !state.halted, state.offset > 0,
                  let total = state.response?.headers["content-length"].flatMap({ Int64($0) }),
                  Int64(state.data.count) != total else { return false }
            Self.resetAttempt(&state)
            return true
        }
        guard wrong else { return false }
        forgetDecodedBytes()
        restartTransfer()
        return true
    }
}
