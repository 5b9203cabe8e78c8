import Foundation

/// Headers and the session life cycle.
extension ImageDownloader {
    /// The value of a header sent with every request (`ImageDownloaderConfig.headers`).
    public func value(forHTTPHeaderField field: String) -> String? {
        config.headers.first { $0.key.caseInsensitiveCompare(field) == .orderedSame }?.value
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
    public func resetSession() { replaceSession(config: nil) }

    /// Replaces the whole configuration; like `resetSession()`, everything in flight is cancelled.
    public func replaceConfig(_ config: ImageDownloaderConfig) { replaceSession(config: config) }

    private func replaceSession(config: ImageDownloaderConfig?) {
        let (operations, old) = state.withLock { state -> ([any DownloadOperation], CurlSession) in
            if let config { state.config = config }
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
