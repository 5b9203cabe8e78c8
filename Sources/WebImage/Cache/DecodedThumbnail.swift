import Foundation
import ImageCodecs

/// A decoded, downscaled image kept on disk next to its original (the thumbnail tier): raw RGBA
/// plus the identity of the original file it was decoded from. A warm start then reads ~60 KB
/// instead of decoding a 12 MP JPEG again. The original is re-stored atomically (new inode) when
/// its content changes, so a thumbnail whose identity no longer matches is stale and dropped.
///
/// The original's format and byte count ride along, so a thumbnail hit (and the memory entry made
/// from it) still tells what the file is; so does the image's `earlyTier`: the same layout holds an
/// early image (`EarlyImageEntry`), which has no original on disk and so no identity.
///
/// Layout: "SDGTHMB3", width, height, source width, source height (UInt32 LE each), source byte count
/// (UInt64 LE, 0 when unknown), format length (UInt8), format (`ImageFormat` raw value), early tier
/// (UInt8, `EarlyTier.code`, 0 for an image of the whole file), identity length (UInt16 LE), identity
/// (UTF-8), pixels (width × height × 4). Other magics (versions 1 and 2) are not thumbnails: they are
/// dropped and decoded again from the original. The disk entry around it carries a CRC, so torn or
/// flipped bytes never get here; an unknown tier code is not a thumbnail either.
enum DecodedThumbnail {
    static let magic = Array("SDGTHMB3".utf8)

    /// The disk key of the thumbnail of `key` (nil without a target size).
    static func diskKey(for key: ImageCacheKey) -> String? {
        guard let size = key.targetSize else { return nil }
        // A still (first frame only) of an animation is no stand-in for its frames: their own names.
        return key.diskKey + "@thumb/\(size.width)x\(size.height)" + (key.firstFrameOnly ? "" : "/frames")
    }

    /// Whether keeping `image` as a thumbnail of `originalBytes` bytes saves work on a warm start:
    /// still images whose raw pixels are smaller than the original file.
    static func isWorthKeeping(_ image: Image, originalBytes: Int) -> Bool {
        !image.isAnimated && image.cost < originalBytes
    }

    static func encode(_ image: Image, sourceIdentity: String) -> Data {
        let identity = Array(sourceIdentity.utf8.prefix(256))
        var out = magic
        for value in [image.width, image.height, image.sourceSize.width, image.sourceSize.height] {
            out += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init)
        }
        out += withUnsafeBytes(of: UInt64(max(0, image.sourceByteCount ?? 0)).littleEndian, Array.init)
        let format = Array((image.sourceFormat?.rawValue ?? "").utf8.prefix(255))
        out.append(UInt8(format.count))
        out += format
        out.append(image.earlyTier?.code ?? 0)
        out += withUnsafeBytes(of: UInt16(identity.count).littleEndian, Array.init)
        out += identity
        out += image.pixels
        return Data(out)
    }

    /// The image and the identity of its original, or nil if `data` is not a well-formed thumbnail.
    static func decode(_ data: Data) -> (image: Image, sourceIdentity: String)? {
        let bytes = [UInt8](data)
        let fixed = magic.count + 16 + 8 + 1
        guard bytes.count >= fixed, Array(bytes[0..<magic.count]) == magic else { return nil }
        func u32(_ at: Int) -> Int {
            Int(UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
        let width = u32(8), height = u32(12), sourceWidth = u32(16), sourceHeight = u32(20)
        let byteCount = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[24 + $1]) << (8 * UInt64($1)) }
        let formatEnd = fixed + Int(bytes[fixed - 1])
        guard bytes.count >= formatEnd + 3 else { return nil }
        let format = ImageFormat(rawValue: String(decoding: bytes[fixed..<formatEnd], as: UTF8.self))
        let tierCode = bytes[formatEnd]
        let tier = EarlyTier(code: tierCode)
        guard tierCode == 0 || tier != nil else { return nil }
        let header = formatEnd + 3
        let identityLength = Int(UInt16(bytes[formatEnd + 1]) | UInt16(bytes[formatEnd + 2]) << 8)
        let pixelStart = header + identityLength
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixelCount <= DecodeOptions.defaultPixelLimit,
              bytes.count == pixelStart + pixelCount * 4 else { return nil }
        let identity = String(decoding: bytes[header..<pixelStart], as: UTF8.self)
        var image = Image(width: width, height: height, pixels: Array(bytes[pixelStart...]),
                          sourceSize: PixelSize(width: sourceWidth, height: sourceHeight))
        image.sourceFormat = format
        image.sourceByteCount = byteCount > 0 && byteCount <= UInt64(Int.max) ? Int(byteCount) : nil
        image.earlyTier = tier
        return (image, identity)
    }
}

extension DiskCache {
    /// An identity of the file now holding `key` (device, inode, size): it changes whenever the
    /// entry is stored anew, but not when it is only read. Nil when there is no entry.
    func fileIdentity(forKey key: String) -> String? {
        for name in candidateNames(forKey: key) {
            if let st = POSIXFile.status(path: path + "/" + name) { return "\(st.device):\(st.inode):\(st.size)" }
        }
        return nil
    }
}
