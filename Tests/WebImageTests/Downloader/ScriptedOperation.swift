import Foundation
import ImageCodecs
import Locking
@testable import WebImage

/// A `DownloadOperation` with no network: the test decides when it ends.
final class ScriptedOperation: DownloadOperation, Sendable {
    private struct State {
        var handlers: [UInt64: DownloadHandler] = [:]
        var started = false
        var done = false
    }

    let setup: DownloadOperationSetup
    private let state = Locked(State())

    init(setup: DownloadOperationSetup) { self.setup = setup }

    var url: URL { setup.url }
    var priority: DownloadPriority { state.withLock { $0.handlers.values.map(\.priority).max() ?? .normal } }
    var isFinished: Bool { state.withLock { $0.done } }
    var isCancelled: Bool { false }
    var started: Bool { state.withLock { $0.started } }

    func addHandler(_ handler: DownloadHandler) -> Bool {
        state.withLock { state in
            guard !state.done else { return false }
            state.handlers[handler.id] = handler
            return true
        }
    }

    func removeHandler(id: UInt64) -> Bool {
        let last = state.withLock { state -> Bool in
            state.handlers[id] = nil
            guard state.handlers.isEmpty, !state.done else { return false }
            state.done = true
            return true
        }
        if last { setup.onFinish(self) }
        return last
    }

    func setPriority(_ priority: DownloadPriority, forHandler id: UInt64) -> DownloadPriority {
        state.withLock { $0.handlers[id]?.priority = priority }
        return self.priority
    }

    func start() { state.withLock { $0.started = true } }

    func cancel() { finish(.failure(.cancelled(url: url))) }

    /// Ends with a 1×1 image.
    func succeed() {
        let response = DownloadResponse(statusCode: 200, url: url)
        let image = Image(width: 1, height: 1, pixels: [0, 0, 0, 255])
        finish(.success(DownloadResult(url: url, image: image, data: Data(), response: response, isFinished: true)))
    }

    private func finish(_ result: Result<DownloadResult, DownloadError>) {
        let handlers = state.withLock { state -> [DownloadHandler] in
            guard !state.done else { return [] }
            state.done = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        guard !handlers.isEmpty else { return }
        setup.onFinish(self)
        for handler in handlers { handler.completion(result) }
    }
}
