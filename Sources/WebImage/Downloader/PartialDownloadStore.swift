import Foundation
import Locking

/// The body received so far by a cancelled transfer, with what a resumed request needs
/// (`Range: bytes=N-`, `If-Range: validator`) and checks (`Content-Range: bytes N-…/total`).
struct PartialDownload: Sendable {
    /// The bytes from the start of the body.
    let data: Data
    /// A strong `ETag`, else the `Last-Modified` date (RFC 9110 §13.1.5).
    let validator: String
    /// The full body length (the 200's `Content-Length`).
    let totalLength: Int64

    /// The partial worth keeping from a cancelled transfer: a 200 with a strong validator, no
    /// `Content-Encoding` (the bytes kept must be the representation's), a known length, and part
    /// of the body received. Nil otherwise.
    init?(data: Data, response: DownloadResponse?) {
        guard let response, response.statusCode == 200, !data.isEmpty,
              response.headers["content-encoding"].map({ $0.lowercased() == "identity" }) ?? true,
              response.headers["accept-ranges"]?.lowercased() != "none",
              let length = response.headers["content-length"].flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }),
              Int64(data.count) < length else { return nil }
        if let etag = response.headers["etag"], !etag.hasPrefix("W/") {
            validator = etag
        } else if let lastModified = response.headers["last-modified"] {
            validator = lastModified
        } else {
            return nil
        }
        self.data = data
        self.totalLength = length
    }

    /// A partial read back from disk.
    init(data: Data, validator: String, totalLength: Int64) {
        self.data = data
        self.validator = validator
        self.totalLength = totalLength
    }

    /// The headers of the request that continues it to the end.
    var requestHeaders: [(name: String, value: String)] {
        [("Range", "bytes=\(data.count)-"), ("If-Range", validator), ("Accept-Encoding", "identity")]
    }

    /// Whether a 206 continues exactly these bytes (`Content-Range: bytes N-(total-1)/total`), of the
    /// same representation (the kept strong `ETag`, else the kept `Last-Modified`, is the 206's: a
    /// 206 with another ETag, or none, was joined to the kept bytes), a body as long as its range
    /// when it says its length, and no encoding.
    func isContinued(by response: DownloadResponse) -> Bool {
        let last = totalLength - 1
        guard response.statusCode == 206, response.headers["content-encoding"] == nil, isSameRepresentation(response),
              let range = response.headers["content-range"],
              range.trimmingCharacters(in: .whitespaces) == "bytes \(data.count)-\(last)/\(totalLength)" else { return false }
        guard let length = response.headers["content-length"] else { return true }
        return Int64(length.trimmingCharacters(in: .whitespaces)) == last - Int64(data.count) + 1
    }

    /// Whether `response` carries the validator the kept bytes were fetched under.
    func isSameRepresentation(_ response: DownloadResponse) -> Bool {
        let field = validator.hasPrefix("\"") ? "etag" : "last-modified"
        return response.headers[field]?.trimmingCharacters(in: .whitespaces) == validator
    }
}

/// Partial bodies of cancelled transfers, by URL, within a byte budget (oldest dropped first), so a
/// cell scrolled away and back continues its download instead of starting over. In memory, or with
/// a `directory` one file each there (`PartialFileStore`), which a later run resumes from.
///
/// On disk, `keep` (called from `cancel` on any thread, the UI thread included) only queues the
/// write on a utility queue; until it is written the partial stays in memory, where `take` finds it.
/// `take(_:then:)` reads a file on a background queue.
final class PartialDownloadStore: Sendable {
    /// The default budget: 64 MB.
    static let defaultBudget = 64 << 20

    private struct State {
        var entries: [URL: PartialDownload] = [:]
        /// Oldest first.
        var order: [URL] = []
        var bytes = 0
        /// Disk mode: the write generation of each entry still waiting for (or in) its write.
        var generations: [URL: Int] = [:]
        var nextGeneration = 0
    }

    /// The most bytes kept.
    let budget: Int
    private let state = Locked(State())
    /// Where partials are kept between runs; nil keeps them in memory.
    private let files: PartialFileStore?
    private let queue = DispatchQueue(label: "sdgallery.downloader.partials", qos: .utility)

    init(budget: Int = PartialDownloadStore.defaultBudget, directory: URL? = nil) {
        self.budget = max(0, budget)
        files = directory.map { PartialFileStore(directory: $0, budget: max(0, budget)) }
    }

    /// Keeps `partial` for `url` (replacing an older one), dropping the oldest until within budget.
    func keep(_ partial: PartialDownload, for url: URL) {
        guard partial.data.count <= budget else { return }
        let generation = state.withLock { state -> Int in
            remove(url, from: &state)
            state.entries[url] = partial
            state.order.append(url)
            state.bytes += partial.data.count
            while state.bytes > budget, let oldest = state.order.first { remove(oldest, from: &state) }
            state.nextGeneration += 1
            if files != nil { state.generations[url] = state.nextGeneration }
            return state.nextGeneration
        }
        guard let files else { return }
        queue.async { [self] in
            // Taken (or replaced) meanwhile: nothing to write.
            guard state.withLock({ $0.generations[url] == generation }) else { return }
            files.write(partial, for: url)
            state.withLock { state in
                guard state.generations[url] == generation else { return }
                remove(url, from: &state)
            }
        }
    }

    /// Takes (removes and returns) the partial kept for `url`.
    func take(_ url: URL) -> PartialDownload? {
        let pending = state.withLock { state in
            let partial = state.entries[url]
            remove(url, from: &state)
            return partial
        }
        guard let files else { return pending }
        if let pending {
            queue.async { files.remove(url) }  // after its write, if that already started
            return pending
        }
        return files.read(url)
    }

    /// Takes the partial kept for `url` and hands it (nil when none) to `body`: at once when it is in
    /// memory, else after reading its file on a background queue (never on the calling thread).
    func take(_ url: URL, then body: @escaping @Sendable (PartialDownload?) -> Void) {
        let pending = state.withLock { $0.entries[url] }
        guard let files, pending == nil else { return body(take(url)) }
        DispatchQueue.global(qos: .userInitiated).async { body(files.read(url)) }
    }

    /// Drops every partial (memory and disk; waits for queued writes).
    func removeAll() {
        state.withLock { $0 = State(nextGeneration: $0.nextGeneration) }
        queue.sync { files?.removeAll() }
    }

    /// Blocks until queued writes are done (tests).
    func waitUntilIdle() { queue.sync {} }

    /// URLs kept, oldest first (tests, diagnostics).
    var urls: [URL] {
        let memory = state.withLock { $0.order }
        guard let files else { return memory }
        let onDisk = files.urls()
        return onDisk + memory.filter { !onDisk.contains($0) }
    }
    /// Bytes kept (on disk: the files' sizes, plus partials not yet written).
    var bytes: Int {
        let memory = state.withLock { $0.bytes }
        guard let files else { return memory }
        return memory + files.files().reduce(0) { $0 + $1.size }
    }

    private func remove(_ url: URL, from state: inout State) {
        state.generations[url] = nil
        guard let old = state.entries.removeValue(forKey: url) else { return }
        state.order.removeAll { $0 == url }
        state.bytes -= old.data.count
    }
}
