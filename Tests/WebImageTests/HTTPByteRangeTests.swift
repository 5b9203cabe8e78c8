import Testing
import WebImage

@Suite struct HTTPByteRangeTests {
    @Test func singleRangesAreReadAndEverythingElseRefused() {
        #expect(HTTPByteRange.parse("bytes=5-", count: 10) == 5..<10)
        #expect(HTTPByteRange.parse("bytes=2-4", count: 10) == 2..<5)
        #expect(HTTPByteRange.parse("bytes=2-99", count: 10) == 2..<10)
        #expect(HTTPByteRange.parse("bytes=-3", count: 10) == 7..<10)
        #expect(HTTPByteRange.parse("bytes=-30", count: 10) == 0..<10)
        #expect(HTTPByteRange.parse("bytes=0-3,5-6", count: 10) == nil)
        #expect(HTTPByteRange.parse("bytes=10-", count: 10) == nil)
        #expect(HTTPByteRange.parse("bytes=4-2", count: 10) == nil)
        #expect(HTTPByteRange.parse("items=0-1", count: 10) == nil)
        #expect(HTTPByteRange.parse("bytes=0-", count: 0) == nil)
    }
}
