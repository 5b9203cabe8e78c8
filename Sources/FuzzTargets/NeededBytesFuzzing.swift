import Foundation
import ImageCodecs

/// `NeededBytes` on the same bytes (the `jpeg` and `jpeg-scans` targets): it reads untrusted bytes on
/// the network thread, so besides never crashing, its verdict must not depend on how the bytes
/// are split, and a prefix it names must be one of the file. Whether the decoder agrees that the
/// prefix holds the image is noted, not required: where it does not, the transfer goes on.
enum NeededBytesFuzzing {
    static func check(_ data: Data, box: PixelSize, split: Int, into report: inout FuzzReport) {
        var whole = NeededBytes(box: box)
        whole.append(data)
        var pieces = NeededBytes(box: box)
        var offset = 0
        let step = max(1, split)
        while offset < data.count {
            pieces.append(data.subdata(in: offset..<min(data.count, offset + step)))
            offset += step
        }
        report.expect(whole.verdict == pieces.verdict, "needed bytes: \(whole.verdict) whole, \(pieces.verdict) in pieces of \(step)")
        guard case .prefix(let count, _) = whole.verdict else { return report.note("needed bytes: \(whole.verdict)") }
        report.expect(count > 0 && count <= data.count, "needed bytes: a prefix of \(count) of \(data.count) bytes")
        let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions(targetSize: box, pixelLimit: ImageFuzzing.pixelLimit))
        decoder.append(data.prefix(count))
        report.note("needed bytes: \(count) of \(data.count), decoder \(decoder.sufficientImage() == nil ? "disagrees" : "agrees")")
    }
}
