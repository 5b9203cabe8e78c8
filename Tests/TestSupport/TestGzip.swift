import Foundation
import Zlib

/// gzip members (RFC 1952) made by zlib, so tests can serve `Content-Encoding: gzip` bodies:
/// `stored` keeps the bytes uncompressed inside the member (level 0: the body stays as large as the
/// content, so throttled transfers take as long as the plain ones); `zeros` is a compression bomb.
public enum TestGzip {
    /// `data` as a gzip member with stored (uncompressed) deflate blocks.
    public static func stored(_ data: Data) -> Data {
        Data(Zlib.deflate([UInt8](data), level: 0, wrapper: .gzip) ?? [])
    }

    /// A gzip member that inflates to `count` zero bytes (about 1:1000).
    public static func zeros(count: Int) -> Data {
        Data(Zlib.deflate([UInt8](repeating: 0, count: count), level: 9, wrapper: .gzip) ?? [])
    }
}
