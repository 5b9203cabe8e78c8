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
            .timedOut(url: url, phase: .waitingForResponse, limit: .seconds(1)), .cannotConnect(url: url, message: ""),
            .cannotResolveHost(url: url, message: ""), .connectionLost(url: url, message: ""),
            .connectionReset(url: url, received: 10), .truncated(url: url, received: 1, expected: 2),
            .cancelled(url: url), .badStatus(url: url, code: 503, reason: ""),
        ]
        let permanent: [DownloadError] = [
            .invalidURL("x"), .badStatus(url: url, code: 404, reason: "Not Found"),
            .tooLarge(url: url, limit: 1, announced: nil), .tlsFailure(url: url, message: ""),
            .tooManyRedirects(url: url, limit: 10), .redirectRefused(url: url, target: "file:///etc/passwd"),
            .badContentEncoding(url: url, encoding: "gzip", message: ""),
            .decodeFailed(url: url, reason: .notAnImage(kind: "text/html")),
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

    @Test("summaries name the phase, the byte counts and the limit; sizes never overflow")
    func summaries() {
        let cases: [(DownloadError, String)] = [
            (.timedOut(url: url, phase: .connecting, limit: .seconds(30)), "timed out connecting (30 s)"),
            (.timedOut(url: url, phase: .waitingForResponse, limit: .milliseconds(1500)), "timed out waiting for the first byte (1.5 s)"),
            (.timedOut(url: url, phase: .body(received: 0), limit: .milliseconds(250)), "stalled after 0 bytes (no data for 250 ms)"),
            (.timedOut(url: url, phase: .body(received: 3 << 20), limit: .seconds(2)), "stalled after 3 MB (no data for 2 s)"),
            (.connectionReset(url: url, received: 0), "connection reset by the server"),
            (.truncated(url: url, received: 1000, expected: 40_000), "body shorter than Content-Length (1000 of 40000 bytes)"),
            (.truncated(url: url, received: 1 << 20, expected: 3 << 20), "body shorter than Content-Length (1 MB of 3 MB)"),
            (.truncated(url: url, received: 5, expected: nil), "connection closed mid-body after 5 bytes"),
            (.tooLarge(url: url, limit: 64 << 20, announced: 10 << 30), "too large: 10 GB announced, limit 64 MB"),
            (.tooLarge(url: url, limit: 64 << 20, announced: .max), "too large: 8191 PB announced, limit 64 MB"),
            (.tooLarge(url: url, limit: 1_500_000, announced: nil), "too large: over the 1.4 MB limit"),
            (.tooManyRedirects(url: url, limit: 10), "too many redirects (over 10)"),
            (.redirectRefused(url: url, target: "file:///etc/passwd"), "redirect to file: refused"),
            (.redirectRefused(url: url, target: "\u{1B}]0;x\u{7}:y"), "redirect to ?: refused"),
            (.redirectRefused(url: url, target: "nowhere"), "redirect to ?: refused"),
            (.badStatus(url: url, code: 401, reason: "Unauthorized"), "401 Unauthorized (login required)"),
            (.badStatus(url: url, code: 404, reason: "Not\u{1B}[2J  Found"), "404 Not Found"),
            (.badStatus(url: url, code: 500, reason: ""), "HTTP 500"),
            (.badContentEncoding(url: url, encoding: "gzip", message: "x"), "corrupt gzip body (Content-Encoding)"),
        ]
        for (error, text) in cases {
            #expect(error.summary == text)
            #expect(ImageLoadError.download(error).shortDescription == text)
            #expect(!error.description.unicodeScalars.contains(where: UntrustedText.isUnsafe))
            #expect(error.description.hasSuffix("(\(url.absoluteString))"))
        }
    }

    @Test("pending queue: priority first, then FIFO or LIFO; updates move entries")
    func pendingQueue() {
        var config = ImageDownloaderConfig()
        config.operationType = ScriptedOperation.self
        let downloader = ImageDownloader(config: config)
        let ops = (0..<4).map { i in
            downloader.state.withLock { state in
                downloader.makeOperation(ImageRequest(url: URL(string: "http://h/\(i)")!), url: URL(string: "http://h/\(i)")!, headers: [], state: state)
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

    @Test("a request's priority defaults to normal; timeout 0 means 15 s")
    func optionsAndConfig() {
        #expect(ImageRequest(url: nil).priority == .normal)
        #expect(DownloadPriority.low < .normal && .normal < .high && .high < .veryHigh)
        var config = ImageDownloaderConfig()
        #expect(config.maxConcurrentDownloads == 12 && config.maxDownloadsPerHost == 6)
        config.downloadTimeout = 0
        #expect(config.effectiveTimeout == .seconds(15))
        config.downloadTimeout = 2.5
        #expect(config.effectiveTimeout == .milliseconds(2500))
    }
}
