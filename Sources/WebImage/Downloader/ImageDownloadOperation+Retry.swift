import Foundation

/// One automatic retry of a GET that failed for a reason that is likely to pass: the connection was
/// reset, or the server said 502, 503 or 504 (a proxy or a restarting server). Never for other
/// statuses (4xx mean the request itself is wrong). The wait is the server's `Retry-After` (seconds or
/// an HTTP date) when it gives one, else `retryDelay`; a `Retry-After` longer than
/// `maximumRetryAfter` is not waited for: the failure stands.
extension ImageDownloadOperation {
    /// The wait before the retry when the server does not say.
    static let retryDelay: Duration = .milliseconds(500)
    /// The longest `Retry-After` honoured.
    static let maximumRetryAfter: Duration = .seconds(10)

    /// Network thread: when `error` calls for the one retry, arranges it and returns true (the
    /// operation keeps running; its handlers hear nothing of the failed attempt).
    func retryIfTransient(_ error: DownloadError) -> Bool {
        let delay = state.withLock { state -> Duration? in
            guard state.phase == .running, !state.halted, state.retries == 0,
                  let delay = Self.retryDelay(for: error, response: state.response) else { return nil }
            state.retries += 1
            Self.resetAttempt(&state)
            return delay
        }
        guard let delay else { return false }
        setup.statistics.noteRetry()
        forgetDecodedBytes()
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        lane.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in restartTransfer() }
        return true
    }

    /// Forgets an abandoned attempt: its transfer, response and bytes (the operation keeps running).
    static func resetAttempt(_ state: inout State) {
        state.transfer = nil
        state.response = nil
        state.data = Data()
        state.offset = 0
        state.resuming = nil
        state.needed = nil
        state.readsToEnd = false
        state.halted = false
        state.decoderHasPartial = false
        state.undecoded = Data()
        state.rendersPartially = nil
        state.partialInFlight = false
    }

    /// The incremental decoder may have seen an abandoned attempt's bytes: start it afresh (lane only).
    func forgetDecodedBytes() {
        lane.async { [self] in decoderBox.decoder = nil }
    }

    /// Starts a fresh transfer of the plain request (no `Range`) unless the operation was cancelled
    /// meanwhile or another transfer runs.
    func restartTransfer() {
        let transfer = state.withLock { state -> CurlTransfer? in
            guard state.phase == .running, state.transfer == nil else { return nil }
            let transfer = CurlTransfer(request: setup.curlRequest, delegate: TransferRelay(operation: self))
            state.transfer = transfer
            return transfer
        }
        if let transfer { setup.session.start(transfer) }
    }

    /// The wait before retrying after `error`, or nil when it is not retried.
    static func retryDelay(for error: DownloadError, response: DownloadResponse?, now: Date = Date()) -> Duration? {
        switch error {
        case .connectionReset:
            return retryDelay
        case .badStatus(_, let code, _) where [502, 503, 504].contains(code):
            guard let value = response?.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return retryDelay }
            let seconds: Double
            if let whole = Int(value), whole >= 0 {
                seconds = Double(whole)
            } else if let date = HTTPDate.parse(value) {
                seconds = max(0, date.timeIntervalSince(now))
            } else {
                return retryDelay
            }
            let wait = Duration.milliseconds(Int64(seconds * 1000))
            return wait <= maximumRetryAfter ? wait : nil
        default:
            return nil
        }
    }
}
