import Foundation

/// Headers, credentials, timeouts, order and session life cycle.
extension ImageDownloader {
    /// Sets (or with nil removes) a header sent with every request from now on.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        state.withLock { state in
            if let existing = state.headers.keys.first(where: { $0.caseInsensitiveCompare(field) == .orderedSame }) {
                state.headers[existing] = nil
            }
            if let value { state.headers[field] = value }
        }
    }

    /// The value of a header sent with every request.
    public func value(forHTTPHeaderField field: String) -> String? {
        state.withLock { state in
            state.headers.first { $0.key.caseInsensitiveCompare(field) == .orderedSame }?.value
        }
    }

    /// Last word on each new request's headers.
    public var headersFilter: (@Sendable (URL, [String: String]) -> [String: String])? {
        get { state.withLock { $0.config.headersFilter } }
        set { state.withLock { $0.config.headersFilter = newValue } }
    }

    /// Basic auth user name for new requests.
    public var username: String? {
        get { state.withLock { $0.config.username } }
        set { state.withLock { $0.config.username = newValue } }
    }

    /// Basic auth password for new requests.
    public var password: String? {
        get { state.withLock { $0.config.password } }
        set { state.withLock { $0.config.password = newValue } }
    }

    /// Idle timeout in seconds for new requests (0 means 15).
    public var downloadTimeout: TimeInterval {
        get { state.withLock { $0.config.downloadTimeout } }
        set { state.withLock { $0.config.downloadTimeout = newValue } }
    }

    /// Order of queued downloads of equal priority.
    public var executionOrder: ImageDownloaderConfig.ExecutionOrder {
        get { state.withLock { $0.config.executionOrder } }
        set { state.withLock { $0.config.executionOrder = newValue } }
    }

    /// Ends the session. With `cancelPendingOperations`, every download is cancelled now (handlers
    /// get `.cancelled`); otherwise queued and running downloads finish first. Either way no new
    /// download starts: later requests complete with `.cancelled`.
    public func invalidateSessionAndCancel(_ cancelPendingOperations: Bool) {
        let (idle, session) = state.withLock { state -> (Bool, CurlSession) in
            state.invalidated = true
            return (state.operations.isEmpty, state.session)
        }
        if cancelPendingOperations {
            for operation in takeAllOperations() { operation.cancel() }
            session.invalidate()
        } else if idle {
            session.invalidate()
        }
        // Otherwise queued and running operations finish; the last `operationDidFinish` ends the session.
    }

    /// Replaces the session (SDWebImage's new session configuration): everything in flight is
    /// cancelled (handlers get `.cancelled`), cookies and connections are dropped, and a fresh
    /// network thread takes over.
    public func resetSession() {
        let (operations, old) = state.withLock { state -> ([any DownloadOperation], CurlSession) in
            let old = state.session
            state.session = CurlSession()
            state.pending = PendingOperationQueue()
            return (Array(state.operations.values), old)
        }
        for operation in operations { operation.cancel() }
        old.invalidate()
    }

    /// Transfers attached to the network thread right now (for diagnostics and tests).
    public var activeTransferCount: Int { state.withLock { $0.session }.activeTransferCount }

    /// The network thread's kernel thread id (Linux), for leak checks.
    public var networkThreadID: Int32 { state.withLock { $0.session }.networkThreadID }

    /// Whether the network thread is running.
    public var isSessionRunning: Bool { state.withLock { $0.session }.isRunning }
}
