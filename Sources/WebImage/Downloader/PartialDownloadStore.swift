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

    /// The headers of the request that continues it.
    var requestHeaders: [(name: String, value: String)] {
        [("Range", "bytes=\(data.count)-"), ("If-Range", validator), ("Accept-Encoding", "identity")]
    }

    /// Whether a 206 continues exactly these bytes (`Content-Range: bytes N-(total-1)/total`).
    func isContinued(by response: DownloadResponse) -> Bool {
        guard response.statusCode == 206, response.headers["content-encoding"] == nil,
              let range = response.headers["content-range"] else { return false }
        return range.trimmingCharacters(in: .whitespaces) == "bytes \(data.count)-\(totalLength - 1)/\(totalLength)"
    }
}

/// Partial bodies of cancelled transfers, by URL, within a byte budget (oldest dropped first), so a
/// cell scrolled away and back continues its download instead of starting over. In memory.
final class PartialDownloadStore: Sendable {
    /// The default budget: 64 MB.
    static let defaultBudget = 64 << 20

    private struct State {
        var entries: [URL: PartialDownload] = [:]
        /// Oldest first.
        var order: [URL] = []
        var bytes = 0
    }

    /// The most bytes kept.
    let budget: Int
    private let state = Locked(State())

    init(budget: Int = PartialDownloadStore.defaultBudget) { self.budget = max(0, budget) }

    /// Keeps `partial` for `url` (replacing an older one), dropping the oldest until within budget.
    func keep(_ partial: PartialDownload, for url: URL) {
        guard partial.data.count <= budget else { return }
        state.withLock { state in
            remove(url, from: &state)
            state.entries[url] = partial
            state.order.append(url)
            state.bytes += partial.data.count
            while state.bytes > budget, let oldest = state.order.first { remove(oldest, from: &state) }
        }
    }

    /// Takes (removes and returns) the partial kept for `url`.
    func take(_ url: URL) -> PartialDownload? {
        state.withLock { state in
            let partial = state.entries[url]
            remove(url, from: &state)
            return partial
        }
    }

    /// URLs kept, oldest first (tests, diagnostics).
    var urls: [URL] { state.withLock { $0.order } }
    /// Bytes kept.
    var bytes: Int { state.withLock { $0.bytes } }

    private func remove(_ url: URL, from state: inout State) {
        guard let old = state.entries.removeValue(forKey: url) else { return }
        state.order.removeAll { $0 == url }
        state.bytes -= old.data.count
    }
}
