import Foundation
import ImageCodecs
import Testing
@testable import WebImage

@Suite struct ImageCacheKeyTests {
    @Test func fragmentIgnoredAndTargetSizeSeparatesEntries() throws {
        let url = try #require(URL(string: "https://example.com/a.jpg?x=1#frag"))
        let full = ImageCacheKey(url: url)
        let thumb = ImageCacheKey(url: url, targetSize: PixelSize(width: 160, height: 96))
        #expect(full.urlKey == "https://example.com/a.jpg?x=1")
        #expect(full != thumb)
        #expect(full.diskKey == thumb.diskKey)
        #expect(thumb.description == "https://example.com/a.jpg?x=1@160×96")
    }

    @Test func defaultDirectoryFollowsXDG() {
        #expect(DiskCacheConfig.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path == "/x/cache/sdgallery")
        #expect(DiskCacheConfig.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.cache/sdgallery")
        #expect(DiskCacheConfig.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/sdgallery")
    }
}
