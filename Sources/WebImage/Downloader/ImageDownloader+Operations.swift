import Foundation
import ImageCodecs

extension ImageDownloader {
    /// Builds the operation for a new transfer from the current configuration and the headers it
    /// sends (`requestHeaders`; called under the lock).
    func makeOperation(_ request: ImageRequest, url: URL, headers: [(name: String, value: String)], state: State) -> any DownloadOperation {
        let config = state.config
        var setup = DownloadOperationSetup(
            url: url, delivery: request.delivery, transfer: request.transfer, decodeOptions: request.decodeOptions(pixelBudget: config.scaleDownPixelBudget),
            headers: headers,
            timeout: config.effectiveTimeout,
            maxResponseBytes: config.maxResponseBytes,
            decoding: config.decoding, progressiveInterval: config.progressiveInterval, events: events,
            onFinish: { [weak self] operation in self?.operationDidFinish(operation) },
            username: config.username, password: config.password, session: state.session)
        setup.statistics = statistics
        setup.caCertificateFile = config.caCertificateFile
        setup.netrcFile = config.netrcFile
        if !config.headersFollowRedirects {
            // The downloader's headers but its defaults (Accept, User-Agent) are the caller's: only for the URL's origin.
            let defaults = ImageDownloaderConfig.defaultHeaders
            setup.originOnlyHeaders = Set(state.config.headers.filter { defaults[$0.key] != $0.value }.keys.map { $0.lowercased() })
        }
        setup.proxy = config.proxy
        setup.partials = config.maxPartialBytes > 0 ? partials : nil
        setup.deadlineIdleTimeouts = config.deadlineIdleTimeouts
        return config.operationType.init(setup: setup)
    }

    /// Downloader headers, then the request's, then no-cache for `.ignoreCachedResponse`, then the
    /// filter; sorted by name so requests are reproducible.
    static func requestHeaders(url: URL, request: ImageRequest, state: State) -> [(name: String, value: String)] {
        var headers = state.config.headers
        for (name, value) in request.headers {
            if let existing = headers.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                headers[existing] = nil
            }
            headers[name] = value
        }
        if request.transfer.contains(.ignoreCachedResponse) {
            headers["Cache-Control"] = "no-cache"
            headers["Pragma"] = "no-cache"
        }
        if let filter = state.config.headersFilter { headers = filter(url, headers) }
        return headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }
}
