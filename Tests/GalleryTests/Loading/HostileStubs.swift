import Foundation
import TestSupport

/// The hostile responses both hostile-network suites serve (the gallery-source table and the tmux
/// end-to-end test), made in one place.
enum HostileStubs {
    /// A PNG whose connection is reset (TCP RST) after 3000 body bytes.
    static func reset(_ png: Data) -> StubResponse {
        var stub = StubResponse.ok(png, contentType: "image/png")
        stub.fault = .resetAfter(bytes: 3000)
        return stub
    }

    /// A PNG whose body ends after 3000 bytes, short of its Content-Length.
    static func short(_ png: Data) -> StubResponse {
        var stub = StubResponse.ok(png, contentType: "image/png")
        stub.fault = .cutAfter(bytes: 3000)
        return stub
    }

    /// 1000 bytes announced as 10 GiB.
    static func huge() -> StubResponse {
        var stub = StubResponse.ok(Data(repeating: 0x41, count: 1000), contentType: "image/png")
        stub.announcedLength = 10 << 30
        return stub
    }

    /// An endless chunked body in `chunkSize` chunks, given up by the server after `stallLimit`.
    static func endless(chunkSize: Int, stallLimit: Duration) -> StubResponse {
        var stub = StubResponse.ok(Data(), contentType: "image/png")
        stub.fault = .endless
        stub.chunkSize = chunkSize
        stub.stallLimit = stallLimit
        return stub
    }
}
