import Testing
@testable import WebImage

@Suite struct HTTPValidatorsTests {
    @Test func producesConditionalHeaders() {
        let v = HTTPValidators(etag: "\"abc\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(v.conditionalHeaders == ["If-None-Match": "\"abc\"", "If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT"])
        #expect(HTTPValidators().isEmpty)
        #expect(!NetworkLibrary.curlVersion.isEmpty)
    }
}
