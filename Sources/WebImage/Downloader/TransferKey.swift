import Foundation

/// What makes two requests one transfer (Nuke keys each stage by everything that changes its work):
/// the URL, the headers the transfer sends (the downloader's, the request's — a revalidation's
/// conditional `If-None-Match`/`If-Modified-Since` among them — and `.ignoreCachedResponse`'s
/// no-cache, after the headers filter) and the request's transfer options (no-cache, cookies,
/// certificate checks). Requests equal in all of that share one transfer
/// (`ImageDownloader` coalesces on it); each keeps its own priority, queue order, decode size and
/// whether it may stop early. Credentials travel in the URL (`user:password@`) or come from the
/// downloader's configuration and netrc, the same for every request: the URL covers them.
struct TransferKey: Hashable, Sendable {
    let url: URL
    /// `name: value` lines, names lowercased, sorted.
    let headers: [String]
    /// The request's transfer options: a transfer is made with them, so a joiner must not get a
    /// transfer made without them.
    let transfer: ImageRequest.TransferOptions

    init(url: URL, headers: [(name: String, value: String)], transfer: ImageRequest.TransferOptions) {
        self.url = url
        self.headers = headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        self.transfer = transfer
    }
}
