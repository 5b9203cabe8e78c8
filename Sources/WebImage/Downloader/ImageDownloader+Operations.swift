import Foundation
import ImageCodecs

extension ImageDownloader {
    /// Builds the operation for a new URL from the current configuration (called under the lock).
    func makeOperation(url: URL, options: ImageDownloaderOptions, context: DownloadContext, state: State) -> any DownloadOperation {
        let config = state.config
        var decodeContext = context
        decodeContext.decodeOptions = Self.decodeOptions(options: options, context: context, config: config)
        var setup = DownloadOperationSetup(
            url: url, options: options, context: decodeContext,
            headers: Self.requestHeaders(url: url, options: options, context: context, state: state),
            timeout: config.effectiveTimeout,
            maxResponseBytes: context.maxResponseBytes ?? config.maxResponseBytes,
            decoding: config.decoding, progressiveInterval: config.progressiveInterval, events: events,
            onFinish: { [weak self] operation in self?.operationDidFinish(operation) },
            username: config.username, password: config.password, session: state.session)
        setup.statistics = statistics
        setup.caCertificateFile = config.caCertificateFile
        setup.netrcFile = config.netrcFile
        if !config.headersFollowRedirects {
            // The downloader's headers but its defaults (Accept, User-Agent) are the caller's: only for the URL's origin.
            let defaults = ImageDownloaderConfig.defaultHeaders
            setup.originOnlyHeaders = Set(state.headers.filter { defaults[$0.key] != $0.value }.keys.map { $0.lowercased() })
        }
        setup.proxy = config.proxy
        setup.partials = config.maxPartialBytes > 0 ? partials : nil
        return config.operationType.init(setup: setup)
    }

    /// The context's decode options, with the pixel budget applied for `.scaleDownLargeImages`.
    static func decodeOptions(options: ImageDownloaderOptions, context: DownloadContext, config: ImageDownloaderConfig) -> DecodeOptions {
        var decode = context.decodeOptions
        if options.contains(.scaleDownLargeImages), decode.targetSize == nil {
            let side = Int(Double(config.scaleDownPixelBudget).squareRoot())
            decode.targetSize = PixelSize(width: side, height: side)
        }
        return decode
    }

    /// Downloader headers, then the context's, then no-cache for `.ignoreCachedResponse`, then the
    /// filter; sorted by name so requests are reproducible.
    static func requestHeaders(url: URL, options: ImageDownloaderOptions, context: DownloadContext, state: State) -> [(name: String, value: String)] {
        var headers = state.headers
        for (name, value) in context.headers {
            if let existing = headers.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                headers[existing] = nil
            }
            headers[name] = value
        }
        if options.contains(.ignoreCachedResponse) {
            headers["Cache-Control"] = "no-cache"
            headers["Pragma"] = "no-cache"
        }
        if let filter = state.config.headersFilter { headers = filter(url, headers) }
        return headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }
}
