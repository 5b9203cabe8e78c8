import Foundation
import ImageCodecs

extension ImageManager {
    /// Step 3: the network. Stores the result and completes; 304 touches the entry. A revalidation
    /// (`cached`) sends the stored validators, asks intermediaries for a fresh copy and shows no
    /// progressive frames over the cached image; it ends with `.keptCached` (a 304, or a failure:
    /// the cached image stands) or the new image.
    func download(_ load: Load, cached: CachedCopy?) {
        let request = cached.map { load.request.revalidating($0.metadata.validators) } ?? load.request
        let progress: DownloadProgressHandler = { received, expected, _ in
            load.deliver(.progress(received: received, expected: expected > 0 ? expected : nil))
        }
        let token = downloader.downloadImage(with: request, progress: progress) { [self] result in
            switch result {
            case .success(let download) where !download.isFinished:
                guard load.request.delivery.contains(.progressiveLoad), let image = download.image else { return }
                load.deliver(.preview(image))
            case .success(let download):
                load.deliver(.finished(storeDownload(download, url: load.url, key: load.key, cacheKey: load.cacheKey, store: load.request.cache.store)
                    .map { ImageLoadSuccess(image: $0, data: download.data) }))
            case .failure(.notModified(let url, let validators, let responseHeaders)):
                guard let cached else {
                    // A 304 to a request without validators (a server's odd answer: a plain load never
                    // shares a revalidation's transfer, `TransferKey`): no cached image to keep.
                    let answer = DownloadError.notModified(url: url, validators: validators, headers: responseHeaders)
                    return load.deliver(.finished(.failure(.download(answer))))
                }
                // RFC 9111 §4.3.4: the 304's headers refresh the stored freshness; its validators, if any, replace the old.
                let now = cache.config.clock()
                let freshness = cached.metadata.freshness?.updated(with: responseHeaders, receivedAt: now)
                    ?? HTTPFreshness(headers: responseHeaders, receivedAt: now)
                let merged = validators.isEmpty ? cached.metadata.validators : validators
                cache.touch(forKey: load.cacheKey, validators: merged, freshness: freshness)
                load.deliver(.keptCached(cached.hit, revalidationError: nil))
            case .failure(let error):
                let failure = ImageLoadError.download(error)
                failedURLs.record(failure, forKey: load.key)
                load.deliver(cached.map { .keptCached($0.hit, revalidationError: failure) } ?? .finished(.failure(failure)))
            }
        }
        if let token { load.operation.attach(token) }
    }

    /// What every finished download goes through, an image's or an original's (`loadOriginal`):
    /// the failed-URL entry cleared, what the file is set on the image, store (where `store` says).
    /// The stored image, or why the body is no image.
    func storeDownload(_ download: DownloadResult, url: URL, key: String, cacheKey: ImageCacheKey,
                       store: ImageRequest.CachePolicy.Store) -> Result<Image, ImageLoadError> {
        failedURLs.remove(key)
        guard var image = download.image else {
            return .failure(.download(.decodeFailed(url: url, reason: .empty)))
        }
        // What the original file is travels with the image (memory hits have no bytes to sniff).
        // A body stopped early (`.stopWhenSufficient`) counts as its announced length.
        image.sourceFormat = ImageFormat.sniff(download.data)
        image.sourceByteCount = download.isWholeBody ? download.data.count
            : download.response.expectedContentLength.map { Int($0) } ?? download.data.count
        // A response marked `Cache-Control: no-store` is kept in memory only (RFC 9111 §5.2.2.5).
        // A body stopped once the image was final at its size (`.stopWhenSufficient`) is not the
        // original: its image goes to memory and to disk as the URL's early image (`EarlyImageEntry`,
        // with the original's validators and freshness), and the rest is fetched (resumed) when wanted.
        let whole = download.isWholeBody
        let toDisk = store != .memoryOnly && !HTTPFreshness.forbidsStorage(download.headers)
        cache.store(
            image: store != .diskOnly || !whole ? image : nil,
            data: whole ? download.data : nil, forKey: cacheKey, toDisk: toDisk,
            validators: download.validators, contentType: download.headers["content-type"], responseHeaders: download.headers
        )
        return .success(image)
    }
}

extension ImageRequest {
    /// The request that revalidates a cached copy: the stored validators as conditional headers, a
    /// fresh answer asked of intermediaries (`.ignoreCachedResponse`), no progressive frames over
    /// the cached image and no early stop. Everything else stays.
    func revalidating(_ validators: HTTPValidators) -> ImageRequest {
        var request = self
        for (name, value) in validators.conditionalHeaders { request.headers[name] = value }
        request.delivery.subtract([.progressiveLoad, .stopWhenSufficient])
        request.transfer.insert(.ignoreCachedResponse)
        return request
    }
}
