import Foundation
import Testing
import TestSupport
@testable import WebImage

/// Credentials in URLs (issue 21: `user:pass@` was stored in the cache key, written into partial
/// files and shown on screen): never in a key or on disk, shown as `user:***@`.
@Suite struct URLCredentialsTests {
    static let url = URL(string: "https://alice:s3cret@example.com/photos/a.jpg#top")!

    @Test func theCacheKeyHasNoCredentials() {
        #expect(ImageCacheKey(url: Self.url).urlKey == "https://example.com/photos/a.jpg")
        #expect(ImageManager(cache: ImageCache(config: { var c = ImageCacheConfig(); c.shouldUseDiskCache = false; return c }())).cacheKey(for: Self.url) == "https://example.com/photos/a.jpg")
    }

    @Test func textShowsThePasswordAsStars() {
        #expect(Self.url.redactedString == "https://alice:***@example.com/photos/a.jpg#top")
        #expect(URL(string: "https://example.com/a.jpg")!.redactedString == "https://example.com/a.jpg")
        let error = DownloadError.badStatus(url: Self.url, code: 404, reason: "Not Found")
        #expect(!error.description.contains("s3cret"))
    }

    @Test func aPartialFileHoldsNoCredentials() throws {
        let root = try Fixtures.temporaryDirectory("partials-credentials")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = PartialFileStore(directory: root, budget: 1 << 20)
        store.write(PartialDownload(data: Data(repeating: 1, count: 100), validator: "\"v\"", totalLength: 1000), for: Self.url)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(names.count == 1)
        let contents = try Data(contentsOf: root.appendingPathComponent(names[0]))
        #expect(contents.range(of: Data("s3cret".utf8)) == nil && contents.range(of: Data("alice".utf8)) == nil)
        #expect(store.read(Self.url)?.data.count == 100)
    }
}
