import Foundation

/// A copy of an encoded file at a stable address, for a decoder that reads it after the call that
/// decoded its first frame (`FrameStream`): C readers keep a pointer into it. Immutable once made;
/// freed with the last reference.
final class EncodedBytes: @unchecked Sendable {  // immutable after init: the bytes are only read
    let base: UnsafeMutableRawBufferPointer

    /// A copy of `data`.
    init(_ data: Data) {
        let base = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { raw in
            if let source = raw.baseAddress, raw.count > 0 { base.baseAddress?.copyMemory(from: source, byteCount: raw.count) }
        }
        self.base = base
        count = data.count
    }

    /// Bytes of the file.
    let count: Int

    /// The file's first byte.
    var start: UnsafePointer<UInt8>? { base.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } }

    deinit { base.deallocate() }
}
