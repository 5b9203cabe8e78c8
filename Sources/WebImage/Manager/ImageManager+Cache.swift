import Foundation
import ImageCodecs

extension ImageManager {
    /// Step 1: the cache (RFC 9111). A fresh hit completes with no request; a stale one (or
    /// `no-cache`, or unknown freshness) — and any hit with `cache.refreshCached` — is delivered at once,
    /// then revalidated with a conditional request. A miss downloads, unless the policy reads memory
    /// only (which also never revalidates).
    func queryCache(_ load: Load) {
        var policy = load.request.cache
        if !load.url.isHTTP { policy.refreshCached = false }  // a file has no validators to send
        let memoryOnly = policy.read == .memoryOnly
        let now = cache.config.clock
        let query = cache.queryCacheOperation(forKey: load.cacheKey, policy: policy) { [self, policy] result in
            if let image = result.image {
                let revalidate = load.url.isHTTP && !memoryOnly && (policy.refreshCached || !result.isFresh(at: now()))
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
                            readingOnlyWhatIsNeeded: load.request.delivery.contains(.stopWhenSufficient)) { [self] result in
                if case .success(let image) = result, load.request.cache.store != .diskOnly {
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
