import Foundation
import ImageCodecs

/// An image's original file, byte for byte: what `ImageManager.loadOriginal` delivers.
public struct ImageOriginal: Sendable {
    /// The whole file.
    public var data: Data
    /// Where it came from: `.disk` (the disk cache's entry), else `.none` (downloaded, or read from
    /// a local file).
    public var cacheType: ImageCacheType
    /// A local file's permission bits; nil for a URL's original.
    public var filePermissions: mode_t?

    /// Creates an original.
    public init(data: Data, cacheType: ImageCacheType = .none, filePermissions: mode_t? = nil) {
        self.data = data
        self.cacheType = cacheType
        self.filePermissions = filePermissions
    }
}

extension ImageManager {
    /// Loads the original file of `url`, byte for byte (what `s` saves; Nuke's `loadData`): the disk
    /// cache's entry when it holds one (no request), else the whole body downloaded, which the cache
    /// then keeps like any download. Never an early image or a thumbnail; a URL that failed before
    /// is asked again (a new failure is remembered as any load's). A `file:` URL is read by the
    /// local-file loader, with the checks of a load (a regular file within the size cap, in a format
    /// this build decodes), and its permission bits come along. `completed` runs once, on a
    /// background queue, never after `cancel()`.
    @discardableResult
    public func loadOriginal(
        of url: URL?, completed: @escaping @Sendable (Result<ImageOriginal, ImageLoadError>) -> Void
    ) -> CombinedOperation {
        let operation = makeOperation()
        let finish: @Sendable (Result<ImageOriginal, ImageLoadError>) -> Void = { result in
            operation.deliver(final: true) { completed(result) }
        }
        guard let url, Self.isLoadable(url) else {
            finish(.failure(.invalidURL(url?.redactedString ?? "")))
            return operation
        }
        if url.isFileURL {
            fileLoader.readOriginal(url) { read in
                finish(read.map { ImageOriginal(data: $0.data, filePermissions: $0.mode) })
            }
            return operation
        }
        let key = cacheKey(for: url)
        var policy = ImageRequest.CachePolicy(store: .diskOnly, retryFailed: true)
        policy.originalData = true
        let request = ImageRequest(url: url, cache: policy)
        let cacheKey = ImageCacheKey(urlKey: key, targetSize: nil, firstFrameOnly: false)
        let query = cache.queryCacheOperation(forKey: cacheKey, policy: request.cache) { [self] result in
            if let data = result.data {
                return finish(.success(ImageOriginal(data: data, cacheType: result.cacheType)))
            }
            guard !operation.isCancelled else { return }
            let token = downloader.downloadImage(with: request) { [self] result in
                switch result {
                case .success(let download) where !download.isFinished:
                    return  // no partial images were asked for
                case .success(let download):
                    finish(storeDownload(download, url: url, key: key, cacheKey: cacheKey, store: request.cache.store)
                        .map { _ in ImageOriginal(data: download.data) })
                case .failure(let error):
                    let failure = ImageLoadError.download(error)
                    failedURLs.record(failure, forKey: key)
                    finish(.failure(failure))
                }
            }
            if let token { operation.attach(token) }
        }
        operation.attach(query)
        return operation
    }
}
