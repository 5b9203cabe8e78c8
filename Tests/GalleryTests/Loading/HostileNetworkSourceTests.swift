import Foundation
import ImageCodecs
import SafeText
import Locking
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// Hostile servers, seen from where a gallery cell sees them: `ManagerImageSource` over a real
/// `ImageManager`, real libcurl and the loopback server, driven by a UI thread of the test's own
/// (the inbox's owner, as in the frame loop). Each case must end in a specific error text (or, for
/// the gzip-encoded PNG, in the image), within the timeout, free of control characters, with the
/// oversize bodies cut at the cap.
@Suite struct HostileNetworkSourceTests {
    /// The idle timeout of the first-byte case (the server never answers, so any wait is exact).
    static let timeout = 3.0
    /// The idle timeout of the stalled-body case: longer, because the loopback server (sharing two
    /// cooperative threads with the whole suite) must first send the 3000 bytes before it stalls.
    static let stallTimeout = 4.0
    /// The idle timeout of every other case: so long that a starved loopback server (the whole suite
    /// shares two cooperative threads with it) cannot turn, say, a reset into a stall.
    static let patientTimeout = 30.0
    /// The response size cap.
    static let cap: Int64 = 2 << 20
    /// A payload a terminal would act on: set the window title, then turn the text red.
    static let payload = "\u{1B}]0;PWNED\u{07}\u{1B}[31mEVIL\u{9B}1m"

    /// What a case must end in.
    enum Expect: Sendable {
        /// The cell's error text, exactly.
        case failure(String)
        /// The cell's error text starts with this.
        case failurePrefix(String)
        /// The final image, of this source size.
        case image(PixelSize)

        /// Whether the expected text is the first-byte timeout.
        var isWaitingText: Bool {
            if case .failure(let text) = self { return text.hasPrefix("timed out waiting for the first byte") }
            return false
        }
    }

    struct Case: Sendable {
        var name: String
        var stub: StubResponse
        var expect: Expect
        /// The idle timeout of this case when its error comes from the idle timer (so it cannot come
        /// much sooner); nil: the patient timeout, which such a case must never reach.
        var timeout: Double?
    }

    /// What one cell received.
    struct Outcome: Sendable {
        var failure: String?
        var image: PixelSize?
        var settledAfter: Duration?
        var maxReceived: Int64 = 0
        var overHundredPercent = false
    }

    static let png = TestPNG.solid(width: 120, height: 80, rgba: (200, 30, 30, 255))  // 38 KB, stored deflate

    static var cases: [Case] {
        let reset = HostileStubs.reset(png)
        let short = HostileStubs.short(png)
        let huge = HostileStubs.huge()
        let endless = HostileStubs.endless(chunkSize: 64 * 1024, stallLimit: .seconds(8))
        var bomb = StubResponse(status: 200, headers: ["Content-Type": "image/png", "Content-Encoding": "gzip"],
                                body: TestGzip.zeros(count: 8 << 20))  // 4× the cap, in 52 KB
        bomb.chunkSize = 16 * 1024
        var stalled = StubResponse.ok(png, contentType: "image/png")
        stalled.fault = .stallAfter(bytes: 3000)
        stalled.stallLimit = .seconds(6)
        var late = StubResponse.ok(png, contentType: "image/png")
        late.firstByteDelay = .seconds(30)
        var escapes = StubResponse.status(403, body: "<html>\(payload)</html>", reason: "Forbidden \(payload)")
        escapes.headers["Content-Type"] = "text/html; \(payload)"
        escapes.headers["Content-Disposition"] = "attachment; filename=\"\(payload).png\""
        var page = StubResponse(status: 200, headers: ["Content-Type": "text/html; charset=\(payload)"],
                                body: Data("<!DOCTYPE html><html><title>\(payload)</title><body>\(payload) log in</body></html>".utf8))
        page.headers["Content-Disposition"] = "inline; filename=\"\(payload)\""
        var auth = StubResponse.ok(png, contentType: "image/png")
        auth.basicAuth = ("user", "secret")
        var fileRedirect = StubResponse.redirect(to: "file:///etc/passwd")
        fileRedirect.body = Data("<html>Moved to file:///etc/passwd \(payload)</html>".utf8)
        var hostileHeadersImage = StubResponse.ok(png, contentType: "image/png; \(payload)")
        hostileHeadersImage.headers["Content-Disposition"] = "inline; filename=\"\(payload).png\""
        return [
            Case(name: "reset", stub: reset, expect: .failurePrefix("connection reset by the server")),
            Case(name: "short", stub: short, expect: .failure("body shorter than Content-Length (3000 of \(png.count) bytes)")),
            Case(name: "huge", stub: huge, expect: .failure("too large: 10 GB announced, limit 2 MB")),
            Case(name: "endless", stub: endless, expect: .failure("too large: over the 2 MB limit")),
            Case(name: "bomb", stub: bomb, expect: .failure("too large: over the 2 MB limit")),
            Case(name: "stalled", stub: stalled, expect: .failure("stalled after 3000 bytes (no data for 4 s)"), timeout: stallTimeout),
            Case(name: "late", stub: late, expect: .failure("timed out waiting for the first byte (3 s)"), timeout: timeout),
            Case(name: "loop", stub: .redirect(to: "/loop"), expect: .failure("too many redirects (over 10)")),
            Case(name: "file", stub: fileRedirect, expect: .failure("redirect to file: refused")),
            Case(name: "gzip", stub: .gzipped(png, contentType: "image/png"), expect: .image(PixelSize(width: 120, height: 80))),
            Case(name: "badgzip", stub: StubResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: png),
                 expect: .failure("corrupt gzip body (Content-Encoding)")),
            Case(name: "page", stub: page, expect: .failure("not an image (text/html)")),
            Case(name: "escapes", stub: escapes, expect: .failure("403 Forbidden EVIL")),
            Case(name: "auth", stub: auth, expect: .failure("401 Unauthorized (login required)")),
            Case(name: "headers", stub: hostileHeadersImage, expect: .image(PixelSize(width: 120, height: 80))),
            Case(name: "good", stub: .ok(png, contentType: "image/png"), expect: .image(PixelSize(width: 120, height: 80))),
        ]
    }

    @Test(.timeLimit(.minutes(1)))
    func everyHostileResponseEndsInAClearErrorWithinTheTimeout() async throws {
        let server = try await LoopbackServer.start()
        let cases = try await Blocking.run { Self.cases }  // the gzip bomb's CRC takes a while in a debug build
        for item in cases { server.route("/\(item.name)", item.stub) }
        let urls = cases.map { server.url("/\($0.name)") }
        let rssBefore = Self.residentBytes()
        let timeouts = cases.map { $0.timeout ?? Self.patientTimeout }
        var outcomes = try await Blocking.run { try Self.bindAll(urls, names: cases.map(\.name), timeouts: timeouts) }
        let rssAfter = Self.residentBytes()
        // A case that found the server silent when it should have answered (it shares two cooperative
        // threads with the whole suite, and a loaded machine can starve it for seconds) runs once more
        // on its own; the second answer counts.
        for (index, item) in cases.enumerated() where item.expect.isWaitingText == false
            && outcomes[item.name]?.failure?.hasPrefix("timed out waiting for the first byte") == true {
            let again = try await Blocking.run { try Self.bindAll([urls[index]], names: [item.name], timeouts: [timeouts[index]]) }
            outcomes[item.name] = again[item.name]
        }
        let patience = Duration.milliseconds(Int64(Self.patientTimeout * 1000))

        for item in cases {
            let outcome = outcomes[item.name] ?? Outcome()
            let label = "\(item.name): \(outcome)"
            guard let settled = outcome.settledAfter else {
                Issue.record("\(item.name) never settled: \(outcome)")
                continue
            }
            // Within the timeout (plus slack for a loaded 2-core machine); timer-driven ones not early.
            if let seconds = item.timeout {
                let timeout = Duration.milliseconds(Int64(seconds * 1000))
                #expect(settled >= timeout * 0.9 && settled < timeout + .seconds(3), "\(label)")
            } else {
                #expect(settled < patience, "\(label)")
            }
            #expect(!outcome.overHundredPercent, "\(label)")
            switch item.expect {
            case .failure(let text):
                #expect(outcome.failure == text, "\(label)")
            case .failurePrefix(let prefix):
                #expect(outcome.failure?.hasPrefix(prefix) == true, "\(label)")
            case .image(let size):
                #expect(outcome.image == size && outcome.failure == nil, "\(label)")
            }
            if let text = outcome.failure {
                #expect(!text.unicodeScalars.contains(where: UntrustedText.isUnsafe), "\(label)")
                #expect(text == UntrustedText.sanitize(text))
            }
        }
        // Bounded: no cell ever held more than the cap; the announced 10 GB got no body at all.
        for name in ["endless", "bomb", "huge"] {
            #expect((outcomes[name]?.maxReceived ?? 0) <= Self.cap, "\(name) buffered \(outcomes[name]?.maxReceived ?? 0) bytes")
        }
        #expect(outcomes["huge"]?.maxReceived == 0)
        // The endless body stopped soon after the cap: the server noticed the client leave long before
        // its 8 s limit, having sent about the cap plus what the socket buffers hold.
        // (The server notices at its next write, which can wait long on a starved cooperative pool.)
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.first { $0.path == "/endless" }?.clientDisconnectedEarly == true })
        let endlessSent = server.requests(to: "/endless").first?.bytesSent ?? 0
        #expect(endlessSent < Int(Self.cap) + (16 << 20), "the server sent \(endlessSent) bytes of the endless body")
        // A gross bound only: the whole suite runs in this process at the same time (547 MB of
        // growth from other tests was seen); the delivered-bytes checks above are the precise ones.
        if let before = rssBefore, let after = rssAfter {
            #expect(after - before < 2 << 30, "RSS grew by \((after - before) >> 20) MB")
        }
        if ProcessInfo.processInfo.environment["SDG_HOSTILE_REPORT"] != nil {
            for item in cases {
                let outcome = outcomes[item.name] ?? Outcome()
                let ms = outcome.settledAfter.map { Int(Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1000) } ?? -1
                print("HOSTILE \(item.name): \(ms) ms, received \(outcome.maxReceived): \(outcome.failure ?? outcome.image.map { "image \($0)" } ?? "-")")
            }
            print("HOSTILE RSS \(rssBefore ?? 0) → \(rssAfter ?? 0); endless sent \(endlessSent)")
        }
        await server.stop()
    }

    /// The test's UI thread: binds one slot per URL as the gallery does (high priority, progressive),
    /// runs the inbox until every slot settled, and returns what each one got, by name. Each URL
    /// loads through a manager whose downloader has its idle timeout.
    static func bindAll(_ urls: [URL], names: [String], timeouts: [Double]) throws -> [String: Outcome] {
        let inbox = try UIInbox<GalleryEvent>()
        inbox.claimOwnership()
        func source(timeout: Double) -> ManagerImageSource {
            var cacheConfig = ImageCacheConfig()
            cacheConfig.shouldUseDiskCache = false
            var config = ImageDownloaderConfig()
            config.downloadTimeout = timeout
            config.maxResponseBytes = cap
            config.maxConcurrentDownloads = urls.count
            let manager = ImageManager(cache: ImageCache(config: cacheConfig), downloader: ImageDownloader(config: config))
            return ManagerImageSource(manager: manager, inbox: inbox, defaults: ImageRequest(url: nil, delivery: .progressiveLoad))
        }
        var sources: [Double: ManagerImageSource] = [:]
        for timeout in Set(timeouts) { sources[timeout] = source(timeout: timeout) }
        let outcomes = Locked<[String: Outcome]>([:])
        let start = ContinuousClock.now
        for (index, url) in urls.enumerated() {
            let name = names[index]
            let item = GalleryItem(entry: URLListEntry(line: index + 1, location: .remote(url)))
            guard let source = sources[timeouts[index]] else { continue }
            source.bind(slot: SlotID(index), item: item, targetSize: PixelSize(width: 120, height: 80), options: []) { update in
                let now = ContinuousClock.now
                outcomes.withLock { all in
                    var outcome = all[name] ?? Outcome()
                    switch update {
                    case .progress(let received, let expected):
                        outcome.maxReceived = max(outcome.maxReceived, received)
                        if let expected, received > expected { outcome.overHundredPercent = true }
                    case .failed(let message):
                        // What the cell shows: the model's failure state.
                        if case .failed(let text) = CellState.failure(message) { outcome.failure = text }
                        outcome.settledAfter = now - start
                    case .final(let image, _):
                        outcome.image = image.sourceSize
                        outcome.settledAfter = now - start
                    case .partial, .notModified:
                        break
                    }
                    all[name] = outcome
                }
            }
        }
        let deadline = Date().addingTimeInterval(40)
        inbox.runWork(until: { outcomes.withLock { all in names.allSatisfy { all[$0]?.settledAfter != nil } } }, deadline: deadline)
        for source in sources.values { source.cancelAll() }
        return outcomes.withLock { $0 }
    }

    /// This process's resident set size (VmRSS), in bytes.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        return kb * 1024
    }
}
