import Foundation
import ImageCodecs
import Locking

/// Downloads images over HTTP(S) with libcurl (SDWebImage's `SDWebImageDownloader`): one transfer
/// per URL shared by every caller, a priority queue with a concurrency limit, live priorities,
/// progress and progressive partial images, typed errors.
///
/// ```swift
/// let downloader = ImageDownloader()
/// let token = downloader.downloadImage(with: ImageRequest(url: url, targetSize: box)) { result in
///     if case .success(let r) = result, r.isFinished { show(r.image) }
/// }
/// let image = try await downloader.image(for: url).image
/// ```
///
/// `@unchecked Sendable`: all mutable state lives in `state` (a `Locked`).
public final class ImageDownloader: @unchecked Sendable {
    struct State {
        var config: ImageDownloaderConfig
        /// Running and queued operations by what their transfer is (`TransferKey`).
        var operations: [TransferKey: any DownloadOperation] = [:]
        /// Each operation's key, for its removal.
        var keys: [ObjectIdentifier: TransferKey] = [:]
        var pending = PendingOperationQueue()
        var running: Set<ObjectIdentifier> = []
        /// Running operations per host (`ImageDownloader.hostKey`).
        var runningPerHost: [String: Int] = [:]
        var suspended = false
        var invalidated = false
        var session: CurlSession
    }

    let state: Locked<State>
    let handlerIDs = AtomicCounter()
    /// Activity events (start, response, stop, finish) for an activity indicator.
    public let events = DownloadEventCenter()
    /// Running counters (requests, coalesced joins, transfers, cancels, bytes).
    public let statistics = DownloadStatistics()
    /// Partial bodies of cancelled transfers, resumed by the next request for their URL.
    let partials: PartialDownloadStore

    /// A shared downloader with the default configuration.
    public static let shared = ImageDownloader()

    /// Creates a downloader with its own network thread.
    public init(config: ImageDownloaderConfig = .default) {
        state = Locked(State(config: config, session: CurlSession()))
        partials = PartialDownloadStore(budget: config.maxPartialBytes, directory: config.partialsDirectory)
    }

    /// Drops the kept partial bodies of cancelled transfers (memory and `partialsDirectory`).
    public func removePartialDownloads() { partials.removeAll() }

    deinit {
        state.withLock { $0.session }.invalidate()
    }

    /// Starts (or joins) the download of `url` with the default request (see `downloadImage(with:progress:completed:)`
    /// with a request).
    @discardableResult
    package func downloadImage(
        with url: URL?, progress: DownloadProgressHandler? = nil, completed: @escaping DownloadCompletionHandler
    ) -> DownloadToken? {
        downloadImage(with: ImageRequest(url: url), progress: progress, completed: completed)
    }

    /// Starts (or joins) the download of `request.url`. Returns nil, after calling `completed` with
    /// `.invalidURL`, when the URL is missing or not http/https, and with `.cancelled` after
    /// `invalidateSessionAndCancel`. Callbacks run on a decode queue, never on the network thread;
    /// keep them short and non-blocking. A request joining a running download of the same transfer
    /// (`TransferKey`: URL, headers sent, transfer options) shares it; its own priority, queue order
    /// and decode size still apply. A revalidation and a plain load of one URL are two transfers.
    @discardableResult
    package func downloadImage(
        with request: ImageRequest, progress: DownloadProgressHandler? = nil, completed: @escaping DownloadCompletionHandler
    ) -> DownloadToken? {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            completed(.failure(.invalidURL(request.url?.absoluteString ?? "")))
            return nil
        }
        let priority = request.priority
        let decodeOptions = request.decodeOptions(pixelBudget: config.scaleDownPixelBudget)
        let id = UInt64(handlerIDs.increment())
        var handler = DownloadHandler(id: id, priority: priority, decodeOptions: decodeOptions, progress: progress, completion: completed)
        handler.stopsWhenSufficient = request.stopsWhenSufficient
        let outcome = state.withLock { state -> (operation: (any DownloadOperation)?, start: [any DownloadOperation]) in
            guard !state.invalidated else { return (nil, []) }
            let headers = Self.requestHeaders(url: url, request: request, state: state)
            let key = TransferKey(url: url, headers: headers, transfer: request.transfer)
            if let existing = state.operations[key], existing.addHandler(handler) {
                state.pending.update(existing, priority: existing.priority, order: request.queueOrder)
                statistics.noteRequest(coalesced: true)
                return (existing, [])
            }
            statistics.noteRequest(coalesced: false)
            let operation = makeOperation(request, url: url, headers: headers, state: state)
            _ = operation.addHandler(handler)
            if let replaced = state.operations.updateValue(operation, forKey: key) { state.keys[ObjectIdentifier(replaced)] = nil }
            state.keys[ObjectIdentifier(operation)] = key
            state.pending.enqueue(operation, priority: operation.priority, order: request.queueOrder)
            return (operation, Self.dequeueRunnable(&state))
        }
        guard let operation = outcome.operation else {
            completed(.failure(.cancelled(url: url)))
            return nil
        }
        for next in outcome.start { next.start() }
        return DownloadToken(url: url, handlerID: id, operation: operation, downloader: self, priority: priority)
    }

    /// Cancels one handler (same as `token.cancel()`).
    package func cancel(_ token: DownloadToken?) { token?.cancel() }

    /// Cancels every download; their handlers get `.failure(.cancelled)`.
    public func cancelAllDownloads() {
        for operation in takeAllOperations() { operation.cancel() }
    }

    /// Every current operation, with the pending queue emptied first so that cancelling one
    /// running operation cannot start a queued one that is about to be cancelled too.
    func takeAllOperations() -> [any DownloadOperation] {
        state.withLock { state in
            state.pending = PendingOperationQueue()
            return Array(state.operations.values)
        }
    }

    /// No new transfer starts while suspended; running ones continue.
    public var isSuspended: Bool {
        get { state.withLock { $0.suspended } }
        set { schedule { $0.suspended = newValue } }
    }

    /// Transfers running at once (default 6, at least 1).
    public var maxConcurrentDownloads: Int { max(1, config.maxConcurrentDownloads) }

    /// Operations currently holding a slot.
    public var currentDownloadCount: Int { state.withLock { $0.running.count } }

    /// Operations waiting for a free transfer slot (or for `isSuspended` to clear).
    public var queuedDownloadCount: Int { state.withLock { $0.pending.count } }

    /// The current configuration (a copy).
    public var config: ImageDownloaderConfig { state.withLock { $0.config } }

    /// Changes the downloader's state under the lock, then starts whatever may now run.
    func schedule(_ change: (inout State) -> Void) {
        let start = state.withLock { state -> [any DownloadOperation] in
            change(&state)
            return Self.dequeueRunnable(&state)
        }
        for operation in start { operation.start() }
    }

    /// Pops runnable operations and marks them running (the caller starts them outside the lock).
    /// An operation waits while its host already runs `maxDownloadsPerHost` transfers, so a slow or
    /// dead host never holds every slot (six stalled URLs on one host kept twelve photos of another
    /// "waiting"); the others start past it in the queue's order.
    static func dequeueRunnable(_ state: inout State) -> [any DownloadOperation] {
        var start: [any DownloadOperation] = []
        let perHost = max(1, state.config.maxDownloadsPerHost)
        while !state.suspended, state.running.count < max(1, state.config.maxConcurrentDownloads) {
            let busy = state.runningPerHost
            guard let next = state.pending.dequeue(order: state.config.executionOrder, where: { operation in
                (busy[hostKey(operation.url)] ?? 0) < perHost
            }) else { break }
            state.running.insert(ObjectIdentifier(next))
            state.runningPerHost[hostKey(next.url), default: 0] += 1
            start.append(next)
        }
        return start
    }

    /// The host a transfer counts against: scheme, host and port of its URL.
    static func hostKey(_ url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Called by an operation (exactly once) when it stops using its slot.
    func operationDidFinish(_ operation: any DownloadOperation) {
        let (start, session) = state.withLock { state -> ([any DownloadOperation], CurlSession?) in
            if let key = state.keys.removeValue(forKey: ObjectIdentifier(operation)), let current = state.operations[key], current === operation {
                state.operations[key] = nil
            }
            if state.running.remove(ObjectIdentifier(operation)) != nil {
                let host = Self.hostKey(operation.url)
                state.runningPerHost[host] = (state.runningPerHost[host] ?? 1) > 1 ? state.runningPerHost[host]! - 1 : nil
            }
            state.pending.remove(operation)
            let finishedAll = state.invalidated && state.operations.isEmpty
            return (Self.dequeueRunnable(&state), finishedAll ? state.session : nil)
        }
        session?.invalidate()
        for next in start { next.start() }
    }

    /// Moves a handler's operation to its new priority.
    func updatePriority(of token: DownloadToken, to priority: DownloadPriority) {
        let operationPriority = token.operation.setPriority(priority, forHandler: token.handlerID)
        state.withLock { $0.pending.update(token.operation, priority: operationPriority) }
    }
}
