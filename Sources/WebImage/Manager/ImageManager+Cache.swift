import Foundation
import ImageCodecs

extension ImageManager {
    /// Step 1: the cache (RFC 9111). A fresh hit completes with no request; a stale one (or
    /// `no-cache`, or unknown freshness) — and any hit with `.refreshCached` — is delivered at once,
    /// then revalidated with a conditional request. A miss downloads, unless `.memoryCacheOnly`
    /// (which also never revalidates).
    func queryCache(_ load: Load) {
        let options = load.url.isHTTP ? load.options : load.options.subtracting(.refreshCached)
        let memoryOnly = options.contains(.memoryCacheOnly)
        let now = cache.config.clock
        let query = cache.queryCacheOperation(forKey: load.cacheKey, options: options) { [self] result in
            if let image = result.image {
                let revalidate = load.url.isHTTP && !memoryOnly && (options.contains(.refreshCached) || !result.isFresh(at: now()))
                let hit = ImageLoadSuccess(image: image, cacheType: result.cacheType)
                guard revalidate else { return load.deliver(.finished(.success(hit))) }
                load.deliver(.revalidating(hit))
                let metadata = ResponseMetadata(validators: result.validators ?? HTTPValidators(), freshness: result.freshness)
                fetch(load, cached: CachedCopy(hit: hit, metadata: metadata))
            } else if memoryOnly {
                load.deliver(.finished(.failure(.notCached(load.url))))
            } else {
                fetch(load, cached: nil)
            }
        }
        load.operation.attach(query)
    }

    /// Step 2: the loader — curl for http(s), the file system for `file:` URLs.
    func fetch(_ load: Load, cached: CachedCopy?) {
        guard !load.operation.isCancelled else { return }
        if load.url.isFileURL {
            fileLoader.load(load.url, options: load.request.decodeOptions(pixelBudget: downloader.config.scaleDownPixelBudget),
                            readingOnlyWhatIsNeeded: load.options.contains(.stopWhenSufficient)) { [self] result in
                if case .success(let image) = result, !load.options.contains(.skipMemoryStore) {
                    cache.store(image: image, data: nil, forKey: load.cacheKey, toDisk: false)
                }
                load.deliver(.finished(result.map { ImageLoadSuccess(image: $0) }))
            }
            return
        }
        download(load, cached: cached)
    }
}

/// The cached image a revalidation is about, with what the cache knows of its response.
struct CachedCopy: Sendable {
    let hit: ImageLoadSuccess
    let metadata: ResponseMetadata
}

extension URL {
    /// Whether the scheme is http or https.
    var isHTTP: Bool {
        let scheme = self.scheme?.lowercased()
        return scheme == "http" || scheme == "https"
    }
}
