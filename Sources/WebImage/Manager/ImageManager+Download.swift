import Foundation
import ImageCodecs

extension ImageManager {
    /// The downloader options the seed's manager derives from the manager options.
    static func downloaderOptions(_ options: ImageManagerOptions, hasCachedImage: Bool) -> ImageDownloaderOptions {
        var result: ImageDownloaderOptions = []
        if options.contains(.lowPriority) { result.insert(.lowPriority) }
        if options.contains(.progressiveLoad) { result.insert(.progressiveLoad) }
        if options.contains(.refreshCached) { result.insert(.useURLCache) }
        if options.contains(.continueInBackground) { result.insert(.continueInBackground) }
        if options.contains(.handleCookies) { result.insert(.handleCookies) }
        if options.contains(.allowInvalidSSLCertificates) { result.insert(.allowInvalidSSLCertificates) }
        if options.contains(.highPriority) { result.insert(.highPriority) }
        if options.contains(.scaleDownLargeImages) { result.insert(.scaleDownLargeImages) }
        if options.contains(.stopWhenSufficient) && !options.contains(.refreshCached) { result.insert(.stopWhenSufficient) }
        if hasCachedImage {
            // Revalidating a cached copy: no progressive frames over it, and a fresh answer.
            result.remove(.progressiveLoad)
            result.insert(.ignoreCachedResponse)
        }
        return result
    }

    /// Step 3: the network. Stores the result and completes; 304 touches the entry.
    func download(_ load: Load, cached: CachedCopy?) {
        var headers = load.context.headers
        if let cached {
            for (name, value) in cached.metadata.validators.conditionalHeaders { headers[name] = value }
        }
        var downloadContext = DownloadContext(decodeOptions: load.decodeOptions, headers: headers)
        downloadContext.queueOrder = load.context.queueOrder
        let options = Self.downloaderOptions(load.options, hasCachedImage: cached != nil)
        let token = downloader.downloadImage(
            with: load.url, options: options, context: downloadContext, progress: load.progress
        ) { [self] result in
            switch result {
            case .success(let download) where !download.isFinished:
                guard load.options.contains(.progressiveLoad), let image = download.image else { return }
                load.deliver(ImageLoadResult(url: load.url, image: image, isFinished: false), last: false)
            case .success(let download):
                finishDownload(load, download)
            case .failure(.notModified(_, let validators, let responseHeaders)):
                // RFC 9111 §4.3.4: the 304's headers refresh the stored freshness; its validators, if any, replace the old.
                let now = cache.config.clock()
                let freshness = cached?.metadata.freshness?.updated(with: responseHeaders, receivedAt: now)
                    ?? HTTPFreshness(headers: responseHeaders, receivedAt: now)
                let merged = validators.isEmpty ? (cached?.metadata.validators ?? validators) : validators
                cache.touch(forKey: load.cacheKey, validators: merged, freshness: freshness)
                load.deliver(ImageLoadResult(url: load.url, cacheType: .none, isNotModified: true), last: true)
            case .failure(let error):
                let failure = ImageLoadError.download(error)
                failedURLs.record(failure, forKey: load.key)
                load.deliver(ImageLoadResult(url: load.url, error: failure), last: true)
            }
        }
        if let token { load.operation.attach(token) }
    }

    /// A finished download: transform, store (memory and/or disk), complete.
    private func finishDownload(_ load: Load, _ download: DownloadResult) {
        failedURLs.remove(load.key)
        guard var image = download.image else {
            let failure = ImageLoadError.download(.decodeFailed(url: load.url, reason: .empty))
            load.deliver(ImageLoadResult(url: load.url, error: failure), last: true)
            return
        }
        var transformed = false
        if let delegate, !image.isAnimated || load.options.contains(.transformAnimatedImage) {
            let result = delegate.transformDownloadedImage(image, for: load.url)
            transformed = result.id != image.id
            image = result
        }
        // What the original file is travels with the image (memory hits have no bytes to sniff).
        // A body stopped early (`.stopWhenSufficient`) counts as its announced length.
        image.sourceFormat = ImageFormat.sniff(download.data)
        image.sourceByteCount = download.isWholeBody ? download.data.count
            : download.response.expectedContentLength.map { Int($0) } ?? download.data.count
        // A transformed image is kept without the original bytes (as in the seed): memory only;
        // so is a response marked `Cache-Control: no-store` (RFC 9111 §5.2.2.5).
        // A body stopped once the image was final at its size (`.stopWhenSufficient`) is not the
        // original: its image goes to memory only, and the rest is fetched (resumed) when wanted.
        let whole = download.isWholeBody
        let toDisk = !load.options.contains(.cacheMemoryOnly) && !transformed && whole && !HTTPFreshness.forbidsStorage(download.headers)
        cache.store(
            image: load.context.storeInMemory || transformed || !whole ? image : nil,
            data: transformed || !whole ? nil : download.data, forKey: load.cacheKey, toDisk: toDisk,
            validators: download.validators, contentType: download.headers["content-type"], responseHeaders: download.headers
        )
        load.deliver(ImageLoadResult(url: load.url, image: image, data: download.data), last: true)
    }
}
