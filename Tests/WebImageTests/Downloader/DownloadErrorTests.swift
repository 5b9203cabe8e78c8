import SafeText
import Foundation
import ImageCodecs
import Testing
@testable import WebImage

@Suite("DownloadError, UntrustedText, PendingOperationQueue, options")
struct DownloadErrorTests {
    let url = URL(string: "http://example.com/a.png")!

    @Test("transient: timeouts, DNS/connect failures, lost connections, cancellation, 5xx")
    func transient() {
        let transient: [DownloadError] = [
            .timedOut(url: url, message: ""), .cannotConnect(url: url, message: ""),
            .cannotResolveHost(url: url, message: ""), .connectionLost(url: url, message: ""),
            .cancelled(url: url), .badStatus(url: url, code: 503, reason: ""),
        ]
        let permanent: [DownloadError] = [
            .invalidURL("x"), .badStatus(url: url, code: 404, reason: "Not Found"),
            .tooLarge(url: url, limit: 1, message: ""), .tlsFailure(url: url, message: ""),
            .redirectRefused(url: url, message: ""), .decodeFailed(url: url, reason: .notAnImage(kind: "text/html")),
            .notModified(url: url, validators: HTTPValidators(etag: "\"1\"")),
        ]
        #expect(transient.allSatisfy { $0.isTransient })
        #expect(!permanent.contains { $0.isTransient })
        #expect((transient + permanent).allSatisfy { $0.url == url || $0.url?.absoluteString == "x" })
    }

    @Test("control characters never survive into descriptions")
    func sanitize() {
        let hostile = "Bad\u{1B}[2J\u{1B}]0;title\u{7}\r\nX-Injected: 1\u{202E}evil\u{9B}31m"
        let clean = UntrustedText.sanitize(hostile)
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(clean.hasPrefix("Bad"))
        #expect(UntrustedText.sanitize(String(repeating: "a", count: 5000)).count == UntrustedText.maxLength)
        let error = DownloadError.badStatus(url: url, code: 500, reason: clean)
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("pending queue: priority first, then FIFO or LIFO; updates move entries")
    func pendingQueue() {
        var config = ImageDownloaderConfig()
        config.operationType = ScriptedOperation.self
        let downloader = ImageDownloader(config: config)
        let ops = (0..<4).map { i in
            downloader.state.withLock { state in
                downloader.makeOperation(url: URL(string: "http://h/\(i)")!, options: [], context: DownloadContext(), state: state)
            }
        }
        var fifo = PendingOperationQueue()
        for op in ops { fifo.enqueue(op, priority: .normal) }
        fifo.update(ops[2], priority: .high)
        fifo.remove(ops[1])
        #expect(fifo.count == 3)
        #expect(fifo.dequeue(order: .fifo) === ops[2])
        #expect(fifo.dequeue(order: .fifo) === ops[0])
        var lifo = PendingOperationQueue()
        for op in ops { lifo.enqueue(op, priority: .normal) }
        lifo.update(ops[0], priority: .low)
        #expect(lifo.dequeue(order: .lifo) === ops[3])
        #expect(lifo.dequeue(order: .lifo) === ops[2])
        #expect(lifo.dequeue(order: .lifo) === ops[1])
        #expect(lifo.dequeue(order: .lifo) === ops[0])
        #expect(lifo.dequeue(order: .lifo) == nil)
    }

    @Test("options map to priorities; timeout 0 means 15 s")
    func optionsAndConfig() {
        #expect(ImageDownloaderOptions.highPriority.priority == .high)
        #expect(ImageDownloaderOptions.lowPriority.priority == .low)
        #expect(ImageDownloaderOptions().priority == .normal)
        var config = ImageDownloaderConfig()
        #expect(config.maxConcurrentDownloads == 6)
        config.downloadTimeout = 0
        #expect(config.effectiveTimeout == .seconds(15))
        config.downloadTimeout = 2.5
        #expect(config.effectiveTimeout == .milliseconds(2500))
    }
}
