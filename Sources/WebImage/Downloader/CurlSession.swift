import Locking
import CCurl
import Foundation
import Synchronization

/// All network I/O of one downloader: a dedicated thread driving a curl multi handle.
///
/// Other threads talk to it only through a locked command queue and `curl_multi_wakeup`; every
/// other curl call (easy handles, multi, share) happens on the network thread. Handles are removed
/// in the loop, never inside a curl callback.
///
/// `@unchecked Sendable`: `inbox` is a `Locked`; `activeCount` is an `Atomic`; the multi/share
/// handles and the transfer table are touched only by the network thread (`run()`).
final class CurlSession: @unchecked Sendable {
    private enum Command: Sendable {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case invalidate
    }

    private struct Inbox {
        var commands: [Command] = []
        /// The multi handle's address, for `curl_multi_wakeup` only; nil before start and after close.
        var multi: UInt?
        var closed = false
    }

    private let inbox = Locked(Inbox())
    private let activeCount = Atomic<Int>(0)
    private let threadRunning = Atomic<Bool>(true)
    private let kernelThreadID = Atomic<Int32>(0)

    /// Idle connections kept for reuse, like a browser's socket pool (a few hosts × 6 each).
    static let idleConnectionPool = 32

    // Network-thread state.
    private var transfers: [UInt: CurlTransfer] = [:]

    /// Starts the network thread.
    init(name: String = "sdgallery.network") {
        CurlGlobal.ensureInitialized()
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Easy handles currently attached to the multi handle.
    var activeTransferCount: Int { activeCount.load(ordering: .acquiring) }

    /// Whether the network thread is still running (false after `invalidate()` took effect).
    var isRunning: Bool { threadRunning.load(ordering: .acquiring) }

    /// Queues a transfer. If the session is closed it completes at once with `.cancelled`.
    func start(_ transfer: CurlTransfer) {
        if !send(.add(transfer)) {
            transfer.delegate.transferDidComplete(.failure(.cancelled(url: transfer.request.url)))
        }
    }

    /// Stops a transfer; its delegate gets no further calls once the loop sees the command.
    func cancel(_ transfer: CurlTransfer) {
        transfer.cancelled.store(true, ordering: .releasing)
        _ = send(.cancel(transfer))
    }

    /// Cancels every transfer (delegates get `.cancelled`) and ends the network thread.
    func invalidate() { _ = send(.invalidate) }

    private func send(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            if let address = inbox.multi, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                curl_multi_wakeup(multi)
            }
            return true
        }
    }

    // MARK: Network thread

    /// The network thread's kernel id (0 until it runs), to check in /proc that it ended.
    var networkThreadID: Int32 { kernelThreadID.load(ordering: .acquiring) }

    private func run() {
        kernelThreadID.store(Self.currentKernelThreadID(), ordering: .releasing)
        guard let multi = curl_multi_init() else { close(multi: nil, share: nil); return }
        _ = sdg_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        // curl's default idle pool is 4 × the handles attached *at that moment*: between one transfer
        // ending and the next starting it can be 4, and curl then closes warm keep-alive connections
        // that the next transfer would have reused (a 7th and 8th connection for 24 images over 6 slots).
        _ = sdg_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.idleConnectionPool)
        let share = curl_share_init()
        if let share { _ = sdg_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) }
        let address = UInt(bitPattern: multi)
        inbox.withLock { $0.multi = address }

        var running = true
        while running {
            let commands = inbox.withLock { inbox -> [Command] in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in commands {
                switch command {
                case .add(let transfer): add(transfer, multi: multi, share: share)
                case .cancel(let transfer): remove(transfer, multi: multi)
                case .invalidate: running = false
                }
            }
            if !running { break }
            var stillRunning: Int32 = 0
            _ = curl_multi_perform(multi, &stillRunning)
            collectFinished(multi: multi)
            expireIdle(multi: multi)
            _ = curl_multi_poll(multi, nil, 0, transfers.isEmpty ? 1000 : 50, nil)
        }
        for transfer in Array(transfers.values) {
            remove(transfer, multi: multi)
            if !transfer.cancelled.load(ordering: .acquiring) {
                transfer.delegate.transferDidComplete(.failure(.cancelled(url: transfer.request.url)))
            }
        }
        close(multi: multi, share: share)
    }

    private func add(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?) {
        guard !transfer.cancelled.load(ordering: .acquiring) else { return }
        guard let easy = curl_easy_init() else {
            transfer.delegate.transferDidComplete(.failure(.transferFailed(
                url: transfer.request.url, curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        transfer.lastActivity = .now
        CurlEasyConfigurator.configure(easy, for: transfer, share: share)
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            cleanup(transfer)
            transfer.delegate.transferDidComplete(.failure(.transferFailed(
                url: transfer.request.url, curlCode: -1, message: "curl_multi_add_handle failed")))
            return
        }
        transfers[UInt(bitPattern: easy)] = transfer
        activeCount.store(transfers.count, ordering: .releasing)
    }

    /// Detaches and frees a transfer's handle (no delegate call).
    private func remove(_ transfer: CurlTransfer, multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        _ = curl_multi_remove_handle(multi, easy)
        transfers[UInt(bitPattern: easy)] = nil
        activeCount.store(transfers.count, ordering: .releasing)
        cleanup(transfer)
    }

    private func cleanup(_ transfer: CurlTransfer) {
        if let easy = transfer.easy { curl_easy_cleanup(easy) }
        transfer.easy = nil
        if let list = transfer.headerList { curl_slist_free_all(list) }
        transfer.headerList = nil
        if let list = transfer.crossOriginHeaderList { curl_slist_free_all(list) }
        transfer.crossOriginHeaderList = nil
    }

    private func collectFinished(multi: UnsafeMutableRawPointer) {
        var easy: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while sdg_curl_multi_info_read(multi, &easy, &code) != 0 {
            guard let handle = easy, let transfer = transfers[UInt(bitPattern: handle)] else { continue }
            let result = CurlResultMapper.result(of: transfer, code: code)
            remove(transfer, multi: multi)
            if !transfer.cancelled.load(ordering: .acquiring) { transfer.delegate.transferDidComplete(result) }
        }
    }

    /// Aborts transfers idle for longer than their timeout or running past their deadline, and drops
    /// cancelled ones.
    private func expireIdle(multi: UnsafeMutableRawPointer) {
        let now = ContinuousClock.now
        for transfer in Array(transfers.values) {
            if transfer.cancelled.load(ordering: .acquiring) {
                remove(transfer, multi: multi)
            } else if now - transfer.lastActivity > transfer.request.timeout || now - transfer.started > transfer.request.deadline {
                transfer.abort = now - transfer.lastActivity > transfer.request.timeout ? .timedOut : .pastDeadline
                let result = CurlResultMapper.result(of: transfer, code: CURLE_OPERATION_TIMEDOUT)
                remove(transfer, multi: multi)
                transfer.delegate.transferDidComplete(result)
            }
        }
    }

    /// The calling thread's kernel id, from `/proc/thread-self` ("PID/task/TID"); 0 if unknown.
    private static func currentKernelThreadID() -> Int32 {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    private func close(multi: UnsafeMutableRawPointer?, share: UnsafeMutableRawPointer?) {
        let leftovers = inbox.withLock { inbox -> [Command] in
            inbox.closed = true
            inbox.multi = nil
            defer { inbox.commands = [] }
            return inbox.commands
        }
        for case .add(let transfer) in leftovers where !transfer.cancelled.load(ordering: .acquiring) {
            transfer.delegate.transferDidComplete(.failure(.cancelled(url: transfer.request.url)))
        }
        if let multi { curl_multi_cleanup(multi) }
        if let share { curl_share_cleanup(share) }
        activeCount.store(0, ordering: .releasing)
        threadRunning.store(false, ordering: .releasing)
    }
}

/// `curl_global_init`, exactly once per process.
enum CurlGlobal {
    private static let initialized: Bool = sdg_curl_global_init() == CURLE_OK
    /// Runs `curl_global_init` the first time it is called.
    @discardableResult static func ensureInitialized() -> Bool { initialized }
}
