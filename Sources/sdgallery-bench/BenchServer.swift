import FlyingFox
import Foundation
import Gallery
import Locking
import TestSupport

/// The loopback image server of the end-to-end benchmarks and soak tests (`sdgallery-bench serve`,
/// and in-process in `sheet`, `scroll`, `memory`, `keys`). Serves the images of one folder:
///
/// - `/img/N.EXT`: alias N of the folder's images, sorted by name: image `N mod count` (EXT is
///   ignored), so that 2000 distinct URLs map onto 16 files;
/// - `/files/NAME`: the image NAME;
/// - `/__stats`: the counters as JSON (not counted); `/__reset`: zero them.
///
/// Every image response goes through Gallery's `ImageFileResponse` (validators, HEAD, 304) with a
/// `ThrottledBody` at `bytesPerSecond` per response (0: unthrottled). A seeded fraction
/// `failRate` of image requests gets `failStatus` instead, and a fraction `cutRate` of the
/// remaining ones has its body cut at half its length. The counters say, per path and in total,
/// requests, body bytes handed to the socket, failures, cuts and 304s, and how many bodies are
/// in flight (and the most at once).
final class BenchServer: Sendable {
    /// What to serve and how.
    struct Config: Sendable {
        var directory: URL
        var bytesPerSecond = 0
        var failRate = 0.0
        var failStatus = 503
        var cutRate = 0.0
        var seed: UInt64 = 1
        /// Answer `/files/NAME.jpg` with the same picture as AVIF or WebP (`NAME.avif`, `NAME.webp`
        /// next to it) when the request's `Accept` prefers it (`ContentNegotiation`), as a CDN does.
        var negotiate = false
    }

    let config: Config
    /// Image file names, sorted; alias N is `names[N % names.count]`.
    let names: [String]
    let stats = BenchServerStats()
    /// Responses by the extension of the file sent (`negotiate`: which variant went).
    let served = Locked<[String: Int]>([:])
    private let random: Locked<SplitMix>
    private let server: Locked<LocalHTTPServer?> = Locked(nil)

    private init(config: Config, names: [String]) {
        self.config = config
        self.names = names
        self.random = Locked(SplitMix(seed: config.seed))
    }

    /// Starts serving `config.directory` on 127.0.0.1 and a free port.
    static func start(_ config: Config) async throws -> BenchServer {
        let extensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "jxl"]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: config.directory.path)) ?? [])
            .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        guard !names.isEmpty else { throw BenchServerError.noImages(config.directory.path) }
        let bench = BenchServer(config: config, names: names)
        let loopback = try await LocalHTTPServer.start(timeout: 600) { request in bench.respond(to: request) }
        bench.server.withLock { $0 = loopback }
        return bench
    }

    /// `start` for synchronous callers (never on the cooperative pool: it blocks until the server listens).
    static func startBlocking(_ config: Config) throws -> BenchServer {
        let outcome = Locked<Result<BenchServer, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<BenchServer, any Error>
            do { result = .success(try await start(config)) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// `stop` for synchronous callers.
    func stopBlocking() {
        let done = DispatchSemaphore(value: 0)
        Task.detached { [self] in
            await stop()
            done.signal()
        }
        done.wait()
    }

    /// The port, 0 once stopped.
    var port: UInt16 { server.withLock { $0?.port ?? 0 } }

    /// `http://127.0.0.1:PORT/img/N.jpg`.
    func aliasURL(_ n: Int) -> String { "http://127.0.0.1:\(port)/img/\(n).jpg" }

    /// The file behind alias `n`.
    func file(ofAlias n: Int) -> URL { config.directory.appendingPathComponent(names[n % names.count]) }

    /// The size in bytes of the file behind alias `n`.
    func size(ofAlias n: Int) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file(ofAlias: n).path)[.size]) as? Int) ?? 0
    }

    /// Stops listening.
    func stop() async {
        let loopback = server.withLock { server in
            defer { server = nil }
            return server
        }
        await loopback?.stop()
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.path {
        case "/__stats":
            return HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): "application/json"], body: stats.json())
        case "/__reset":
            stats.reset()
            return HTTPResponse(statusCode: .noContent)
        default: break
        }
        guard request.method == .GET || request.method == .HEAD, var file = file(forPath: request.path) else {
            stats.record(path: request.path, outcome: .notFound)
            return HTTPResponse(statusCode: .notFound)
        }
        let (fail, cut) = random.withLock { random in (random.unit() < config.failRate, random.unit() < config.cutRate) }
        if fail {
            stats.record(path: request.path, outcome: .failed)
            return HTTPResponse(statusCode: HTTPStatusCode(config.failStatus, phrase: "Injected Failure"))
        }
        if config.negotiate { file = negotiated(file, accept: request.headers[HTTPHeader("Accept")]) }
        served.withLock { $0[file.pathExtension, default: 0] += 1 }
        let size = ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? Int) ?? 0
        let flight = stats.begin(path: request.path)
        stats.note("\(request.path) \(request.method.rawValue) range=\(request.headers[HTTPHeader("Range")] ?? "-")")
        let response = ImageFileResponse.make(for: request, file: file, bytesPerSecond: config.bytesPerSecond,
                                              cutAfter: cut ? size / 2 : nil, observer: flight)
        flight.settle(status: response.statusCode.code, cut: cut)
        return response
    }

    /// The variant of `file` the client prefers: the same stem as AVIF, WebP or the file itself,
    /// smaller first on ties.
    func negotiated(_ file: URL, accept: String?) -> URL {
        let stem = file.deletingPathExtension()
        let variants = [("image/avif", "avif"), ("image/webp", "webp"), ("image/jpeg", file.pathExtension)].map { ($0.0, stem.appendingPathExtension($0.1)) }
            .filter { FileManager.default.fileExists(atPath: $0.1.path) }
        guard let type = ContentNegotiation.choose(variants.map(\.0), accept: accept) else { return file }
        return variants.first { $0.0 == type }?.1 ?? file
    }

    /// The file a request path names, nil for none.
    func file(forPath path: String) -> URL? {
        if path.hasPrefix("/img/") {
            let stem = path.dropFirst("/img/".count).split(separator: ".").first ?? ""
            guard let n = Int(stem), n >= 0 else { return nil }
            return file(ofAlias: n)
        }
        if path.hasPrefix("/files/") {
            let name = String(path.dropFirst("/files/".count)).removingPercentEncoding ?? ""
            guard names.contains(name) else { return nil }
            return config.directory.appendingPathComponent(name)
        }
        return nil
    }
}

/// Why the bench server could not start.
enum BenchServerError: Error, CustomStringConvertible {
    case noImages(String)

    var description: String {
        switch self {
        case .noImages(let path): return "no images (jpg, png, gif, webp, jxl) in \(path)"
        }
    }
}

extension SplitMix {
    /// A double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
