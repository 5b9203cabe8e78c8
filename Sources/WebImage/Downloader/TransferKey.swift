import Foundation

/// What makes two requests one transfer (Nuke keys each stage by everything that changes its work):
/// the URL, the headers the transfer sends (the downloader's, the request's — a revalidation's
/// conditional `If-None-Match`/`If-Modified-Since` among them — and `.ignoreCachedResponse`'s
/// no-cache, after the headers filter) and the request options that change the transfer itself
/// (cookies, certificate checks). Requests equal in all of that share one transfer
/// (`ImageDownloader` coalesces on it); each keeps its own priority, queue order, decode size and
/// whether it may stop early. Credentials travel in the URL (`user:password@`) or come from the
/// downloader's configuration and netrc, the same for every request: the URL covers them.
struct TransferKey: Hashable, Sendable {
    let url: URL
    /// `name: value` lines, names lowercased, sorted.
    let headers: [String]
    /// The options of `transferOptions` the request has.
    let options: ImageRequest.Options.RawValue

    /// The request options a transfer is made with (a joiner must not get a transfer made without them).
    static let transferOptions: ImageRequest.Options = [.handleCookies, .allowInvalidSSLCertificates, .ignoreCachedResponse]

    init(url: URL, headers: [(name: String, value: String)], options: ImageRequest.Options) {
        self.url = url
        self.headers = headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        self.options = options.intersection(Self.transferOptions).rawValue
    }
}
