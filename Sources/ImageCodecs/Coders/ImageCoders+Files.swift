import Foundation

extension ImageCoders {
    /// Bytes of a file read first: a camera JPEG's EXIF thumbnail lives in them.
    public static let fileHeadLength = 65_536
    /// Bytes read at a time after the head.
    static let fileChunkLength = 256 << 10

    /// Decodes the file at `handle` (of `size` bytes) for `options.targetSize`, reading only as much
    /// as the target needs: its first 64 KB, then 256 KB at a time, and it stops as soon as the
    /// decoder has an image final at that size (`IncrementalDecoding.sufficientImage()`: a JPEG's
    /// EXIF thumbnail that covers the target, a progressive JPEG's scans for its scale, an Adam7
    /// PNG's first pass) — what the network does with `Range`, for a local file. Otherwise to the
    /// end, as `decode` would. Returns the image (`sourceFormat` and `sourceByteCount` — the whole
    /// file's — set) and the bytes read. Throws `DecodeError`, or the read's error.
    public static func decodeFile(_ handle: FileHandle, size: Int, options: DecodeOptions) throws -> (image: Image, bytesRead: Int) {
        let decoder = makeIncrementalDecoder(options: options)
        var read = 0
        var format = ImageFormat.unknown
        var length = fileHeadLength
        var found: Image?
        while found == nil, let chunk = try handle.read(upToCount: length), !chunk.isEmpty {
            if read == 0 {
                format = ImageFormat.sniff(chunk)
                if let error = format.undecodableError { throw error }
            }
            read += chunk.count
            decoder.append(chunk)
            if options.targetSize != nil { found = decoder.sufficientImage() }
            length = fileChunkLength
        }
        if read == 0 { throw DecodeError.empty }
        var image = try found ?? decoder.finish()
        image.sourceFormat = format
        image.sourceByteCount = max(size, read)
        return (image, read)
    }
}
