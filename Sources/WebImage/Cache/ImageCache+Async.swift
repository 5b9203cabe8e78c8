import Foundation
import ImageCodecs

extension ImageCache {
    /// Async form of `queryCacheOperation`; task cancellation cancels the query and throws
    /// `CancellationError`.
    package func query(_ key: ImageCacheKey, policy: ImageRequest.CachePolicy = ImageRequest.CachePolicy()) async throws -> ImageCacheQueryResult {
        try await ResumeOnce<ImageCacheQueryResult>().run { finish in
            queryCacheOperation(forKey: key, policy: policy) { finish(.success($0)) }
        }
    }

    /// Async form of `store`; returns when the bytes are on disk.
    public func store(image: Image?, data: Data?, forKey key: ImageCacheKey, toDisk: Bool = true, validators: HTTPValidators = HTTPValidators(), contentType: String? = nil) async {
        await ResumeOnce<Void>.wait { finish in
            store(image: image, data: data, forKey: key, toDisk: toDisk, validators: validators, contentType: contentType) { finish(()) }
        }
    }

    /// Async form of `removeImage`.
    public func removeImage(forKey key: ImageCacheKey, fromDisk: Bool = true) async {
        await ResumeOnce<Void>.wait { finish in removeImage(forKey: key, fromDisk: fromDisk) { finish(()) } }
    }

    /// Async form of `clearDisk`.
    public func clearDisk() async {
        await ResumeOnce<Void>.wait { finish in clearDisk { finish(()) } }
    }

    /// Async form of `touch`; returns whether the entry existed.
    @discardableResult
    public func touch(forKey key: ImageCacheKey, validators: HTTPValidators? = nil) async -> Bool {
        await ResumeOnce<Bool>.wait { finish in touch(forKey: key, validators: validators) { finish($0) } }
    }

    /// Async form of `cleanExpired`; returns how many expired entries were removed.
    @discardableResult
    public func cleanExpired() async -> Int {
        await ResumeOnce<Int>.wait { finish in cleanExpired { finish($0) } }
    }
}
