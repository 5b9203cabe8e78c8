import Foundation
import ImageCodecs
import Locking

/// The default `DownloadOperation`: one libcurl transfer, many handlers, progress, progressive
/// partial images and the final decode on a decode queue (never on the network thread).
///
/// `@unchecked Sendable`: `state` is a `Locked` (the one lock: never held while a handler runs);
/// `decoderBox` is touched only on `lane` (a serial queue, where every callback runs).
package final class ImageDownloadOperation: DownloadOperation, @unchecked Sendable {
    enum Phase { case pending, running, finished, cancelled }

    struct State {
        var phase = Phase.pending
        var handlers: [UInt64: DownloadHandler] = [:]
        var order: [UInt64] = []
        var transfer: CurlTransfer?
        var response: DownloadResponse?
        var data = Data()
        /// Bytes not yet handed to the incremental decoder.
        var undecoded = Data()
        /// Whether the body can be shown partially (decided from its first 16 bytes; nil before).
        /// When not, the incremental decoder gets nothing more and the end decodes in one shot.
        var rendersPartially: Bool?
        var partialInFlight = false
        var lastPartial: ContinuousClock.Instant?
        /// When progress was last delivered (`progressInterval` apart, the last byte always).
        var lastProgress: ContinuousClock.Instant?
        /// Transfers tried so far beyond the first (at most one retry).
        var retries = 0
        /// The partial body this transfer asked to continue (`Range`), until its response answers.
        var resuming: PartialDownload?
        /// Bytes of `data` that came from a partial body (0 when not resumed).
        var offset: Int64 = 0
        /// Where the bytes the handlers need end, read as they arrive (`+NeededBytes`); nil when the
        /// transfer does not watch (or the verdict is in).
        var needed: NeededBytes?
        /// A transfer stopped at its needed bytes did not give the image: the next one goes to the end.
        var cutFailed = false
        /// The needed bytes end less than `smallestCutRest` before the body's: it is read to the end and
        /// decoded whole, not stopped early by the decode lane either.
        var readsToEnd = false
        /// The lane stopped the transfer before its early image was made (`stopIfSufficient`): a
        /// completion already on its way is ignored, the image's making ends the operation or goes on.
        var halted = false
        /// The incremental decoder already has the bytes a resumed 206 restores (the continuation
        /// after a cut): they are not fed again.
        var decoderHasPartial = false
        /// The handler whose callback is running now (on `lane`), and that thread.
        var delivering: (id: UInt64, thread: pthread_t)?
    }

    /// The setup handed over by the downloader.
    package let setup: DownloadOperationSetup
    let state = Locked(State())
    /// Serial queue for decoding and callbacks.
    let lane = DecodeQueues.lane()
    /// The incremental decoder (lane only).
    let decoderBox = DecoderBox()

    /// Creates a pending operation.
    package required init(setup: DownloadOperationSetup) { self.setup = setup }

    /// The URL being downloaded.
    package var url: URL { setup.url }
    /// Whether progressive partial images are wanted.
    var isProgressive: Bool { setup.delivery.contains(.progressiveLoad) }
    /// Whether the bytes go to the incremental decoder as they arrive: for partial images, or to
    /// stop once the image is final at its size (`.stopWhenSufficient`, partials or not).
    var decodesIncrementally: Bool { isProgressive || setup.delivery.contains(.stopWhenSufficient) }

    /// The highest handler priority (`.normal` with no handlers).
    package var priority: DownloadPriority {
        state.withLock { $0.handlers.values.map(\.priority).max() ?? .normal }
    }
    /// Whether the transfer ended.
    package var isFinished: Bool { state.withLock { $0.phase == .finished } }
    /// Whether the operation was cancelled.
    package var isCancelled: Bool { state.withLock { $0.phase == .cancelled } }

    /// Adds a handler unless the transfer already ended or was cancelled.
    package func addHandler(_ handler: DownloadHandler) -> Bool {
        state.withLock { state in
            guard state.phase == .pending || state.phase == .running else { return false }
            state.handlers[handler.id] = handler
            state.order.append(handler.id)
            return true
        }
    }

    /// Removes a handler silently; cancels the transfer when it was the last one. Once this returns
    /// the handler is never called: a callback of it already running on another thread is waited
    /// for (callbacks are short); from inside its own callback (a handler cancelling its token)
    /// there is nothing to wait for.
    @discardableResult package func removeHandler(id: UInt64) -> Bool {
        let me = pthread_self()
        var running = false
        let (wasLast, previous, transfer, partial) = state.withLock { state -> (Bool, Phase, CurlTransfer?, PartialDownload?) in
            if let delivering = state.delivering, delivering.id == id, pthread_equal(delivering.thread, me) == 0 { running = true }
            guard state.handlers.removeValue(forKey: id) != nil else { return (false, state.phase, nil, nil) }
            state.order.removeAll { $0 == id }
            guard state.handlers.isEmpty, state.phase == .pending || state.phase == .running else {
                return (false, state.phase, nil, nil)
            }
            let previous = state.phase
            state.phase = .cancelled
            defer { state.transfer = nil }
            return (true, previous, state.transfer, Self.takePartial(&state))
        }
        if running { waitForDelivery(of: id) }
        if let partial { setup.partials?.keep(partial, for: url) }
        if wasLast { stopCancelled(previous: previous, transfer: transfer) }
        return wasLast
    }

    /// Changes a handler's priority and returns the operation's.
    package func setPriority(_ priority: DownloadPriority, forHandler id: UInt64) -> DownloadPriority {
        state.withLock { state in
            state.handlers[id]?.priority = priority
            return state.handlers.values.map(\.priority).max() ?? .normal
        }
    }

    /// Starts the transfer on the network thread, continuing a kept partial body if there is one
    /// (read from disk off the calling thread, which may be the UI thread cancelling another load).
    package func start() {
        let began = state.withLock { state -> Bool in
            guard state.phase == .pending else { return false }
            state.phase = .running
            return true
        }
        guard began else { return }
        setup.events.post(.started(url))
        guard !setup.isConditional, let partials = setup.partials else { return launch(resuming: nil) }
        partials.take(url) { [self] partial in launch(resuming: partial) }
    }

    /// Sends the request (with `Range` / `If-Range` for `partial`) unless cancelled meanwhile, when
    /// the partial is kept again. A transfer whose handlers need only the first bytes watches for
    /// their end (`+NeededBytes`), from the kept bytes on.
    func launch(resuming partial: PartialDownload?) {
        let transfer = state.withLock { state -> CurlTransfer? in
            guard state.phase == .running, state.transfer == nil else { return nil }
            var request = setup.curlRequest
            if let partial {
                state.resuming = partial
                request.headers += partial.requestHeaders
            }
            if watchesNeededBytes(state) {
                var needed = NeededBytes(box: setup.decodeOptions.targetSize)
                if let partial { needed.append(partial.data) }
                state.needed = needed
            }
            let transfer = CurlTransfer(request: request, delegate: TransferRelay(operation: self))
            state.transfer = transfer
            return transfer
        }
        guard let transfer else {
            if let partial { setup.partials?.keep(partial, for: url) }
            return
        }
        setup.session.start(transfer)
    }

    /// Cancels; remaining handlers get `.failure(.cancelled)` (on the lane).
    package func cancel() {
        let (previous, transfer, handlers, partial) = state.withLock {
            state -> (Phase, CurlTransfer?, [DownloadHandler], PartialDownload?) in
            let previous = state.phase
            guard previous == .pending || previous == .running else { return (previous, nil, [], nil) }
            state.phase = .cancelled
            defer { state.transfer = nil }
            return (previous, state.transfer, state.order.compactMap { state.handlers[$0] }, Self.takePartial(&state))
        }
        guard previous == .pending || previous == .running else { return }
        if let partial { setup.partials?.keep(partial, for: url) }
        let url = self.url
        lane.async { [self] in
            for handler in handlers { deliver(to: handler.id) { handler.completion(.failure(.cancelled(url: url))) } }
            state.withLock { $0.handlers.removeAll() }
        }
        stopCancelled(previous: previous, transfer: transfer)
    }

    private func stopCancelled(previous: Phase, transfer: CurlTransfer?) {
        if previous == .running {
            if let transfer { setup.session.cancel(transfer) }
            setup.events.post(.stopped(url))
        }
        setup.onFinish(self)
    }

    /// A cancelled transfer's body worth resuming (its bytes leave `state`).
    static func takePartial(_ state: inout State) -> PartialDownload? {
        guard state.transfer != nil, let partial = PartialDownload(data: state.data, response: state.response) else { return nil }
        state.data = Data()
        state.undecoded = Data()
        return partial
    }

    /// Runs `body` (a callback of handler `id`) if the handler is still registered, with no lock
    /// held; `removeHandler` on another thread waits for it. Called on `lane` only, so one at a time.
    func deliver(to id: UInt64, _ body: () -> Void) {
        let me = pthread_self()
        let registered = state.withLock { state -> Bool in
            guard state.handlers[id] != nil else { return false }
            state.delivering = (id, me)
            return true
        }
        guard registered else { return }
        body()
        state.withLock { $0.delivering = nil }
    }

    /// Waits until the running callback of handler `id` returned (it was already past its check).
    private func waitForDelivery(of id: UInt64) {
        while state.withLock({ $0.delivering?.id == id }) { sched_yield() }
    }

    /// The current handlers, in the order they were added.
    var currentHandlers: [DownloadHandler] {
        state.withLock { state in state.order.compactMap { state.handlers[$0] } }
    }
}

/// Holds the incremental decoder. `@unchecked Sendable`: used only on the owning operation's lane.
final class DecoderBox: @unchecked Sendable {
    var decoder: (any IncrementalDecoding)?
}

/// Forwards network-thread events to the operation without the session retaining the operation
/// beyond the transfer's life.
final class TransferRelay: CurlTransferDelegate {
    let operation: ImageDownloadOperation
    init(operation: ImageDownloadOperation) { self.operation = operation }
    func transferDidReceiveResponse(_ response: DownloadResponse) { operation.didReceiveResponse(response) }
    func transferDidReceive(_ chunk: Data, received: Int64, expected: Int64) {
        operation.didReceive(chunk, received: received, expected: expected)
    }
    func transferDidComplete(_ result: Result<DownloadResponse, DownloadError>) { operation.didComplete(result) }
}
