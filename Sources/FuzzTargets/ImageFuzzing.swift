import Foundation
import ImageCodecs
import SafeText

/// The image targets: sniff, decode in one go at full size, decode into a small box, and feed an
/// incremental decoder in chunks, checking every image and error that comes out.
///
/// The pixel cap is lowered to `pixelLimit` so one input costs milliseconds, not seconds; the cap's
/// code path is the same whatever its value. libFuzzer's `-malloc_limit_mb` (set by `scripts/fuzz`)
/// then catches any allocation the cap does not bound.
enum ImageFuzzing {
    /// Pixel cap for fuzzing: 512×512 (1 MB of RGBA), so that even a 26-frame animation costs
    /// milliseconds under ASan.
    static let pixelLimit = 1 << 18

    static func run(_ input: Data, forcing format: ImageFormat?) -> FuzzReport {
        var report = FuzzReport()
        let data = format.map { withSignature(input, of: $0) } ?? input
        var parameters = FuzzParameters(data)

        let sniffed = ImageFormat.sniff(data)
        report.note("sniffed \(sniffed.rawValue)")
        report.expect(sniffed == ImageFormat.sniff([UInt8](data.prefix(512))), "sniff(Data) and sniff([UInt8]) disagree")
        if let format { report.expect(sniffed == format, "signature for \(format.rawValue) sniffed as \(sniffed.rawValue)") }

        let full = decode(data, options: DecodeOptions(pixelLimit: pixelLimit), label: "full", into: &report)
        if case .failure(let error) = full, let expected = data.isEmpty ? DecodeError.empty : sniffed.undecodableError {
            report.expect(error == expected, "\(sniffed.rawValue) failed with \(error), not \(expected)")
        }

        let box = PixelSize(width: parameters.int(in: 1...48), height: parameters.int(in: 1...48))
        let boxed = DecodeOptions(targetSize: box, pixelLimit: pixelLimit, firstFrameOnly: parameters.oneIn(2))
        // libjpeg-turbo decodes corrupt entropy-coded data differently depending on how much input
        // is buffered when it reaches each MCU (its fast Huffman path runs only with 512 bytes per
        // block ahead; the suspending path otherwise), at times without a warning: a few pixels
        // differ (Tests/Fuzz/regressions/jpeg/corrupt-entropy-data-split-mid-scan.jpg) and, when the
        // stream also lacks its end, one decode may run out of data a row short of the image where
        // another completes every row (…/truncated-corrupt-entropy-rows-depend-on-buffering.jpg).
        // So for JPEG a `.truncated` failure may stand against a success; valid files agree at
        // every split, to the pixel (SniffingDecoderTests).
        let jpeg = sniffed == .jpeg
        let small = decode(data, options: boxed, label: "box \(box)", into: &report)
        compare(full, small, "full", "boxed", sameSize: false, samePixels: false, truncationMayDiffer: jpeg, into: &report)

        // Incremental equals one-shot to the pixel, except for JPEG (above) and HEIC: libde265 leaves
        // the blocks of a damaged HEVC stream it skips as they were in memory, without a warning, so
        // two decodes of the same bytes differ there (Tests/Fuzz/regressions/heic/damaged-hevc-leaves-blocks-undecoded.heic).
        let streamed = stream(data, options: boxed, parameters: &parameters, into: &report)
        compare(small, streamed, "boxed", "incremental", sameSize: true, samePixels: !jpeg && sniffed != .heic, truncationMayDiffer: jpeg, into: &report)
        if jpeg { NeededBytesFuzzing.check(data, box: box, split: parameters.int(in: 1...4096), into: &report) }
        return report
    }

    /// `data` with the format's signature in front, unless it already starts with it; a WebP gets a
    /// RIFF header whose size field covers the data, an AVIF or HEIC an `ftyp` box.
    static func withSignature(_ data: Data, of format: ImageFormat) -> Data {
        let magic: [UInt8]
        switch format {
        case .jpeg: magic = [0xFF, 0xD8, 0xFF]
        case .png: magic = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .gif: magic = Array("GIF89a".utf8)
        case .webp:
            if data.count >= 12 && data.prefix(4) == Data("RIFF".utf8) && data.dropFirst(8).prefix(4) == Data("WEBP".utf8) { return data }
            let size = UInt32(truncatingIfNeeded: data.count + 4)
            return Data("RIFF".utf8) + withUnsafeBytes(of: size.littleEndian) { Data($0) } + Data("WEBP".utf8) + data
        case .avif, .heic:
            // An ISOBMFF file: kept when its ftyp box already names the format; else a minimal
            // ftyp box goes in front.
            if ImageFormat.sniff(data) == format { return data }
            let brands = format == .avif ? ["avif", "avif", "mif1", "miaf"] : ["heic", "mif1", "heic"]
            let box = [UInt8](Data(brands[0].utf8)) + [0, 0, 0, 0] + brands.dropFirst().flatMap { [UInt8]($0.utf8) }
            return Data(withUnsafeBytes(of: UInt32(box.count + 8).bigEndian) { Array($0) } + Array("ftyp".utf8) + box) + data
        case .tiff: magic = [0x49, 0x49, 0x2A, 0x00]
        case .bmp, .ico: return ImageFormat.sniff(data) == format ? data : wrapped(data, as: format)
        case .jxl:
            // The container's signature box is left as it is; anything else becomes a bare codestream.
            if ImageFormat.sniff(data) == .jxl { return data }
            magic = [0xFF, 0x0A]
        case .svg:
            return ImageFormat.sniff(data) == .svg ? data : Data("<svg ".utf8) + data
        default: return data
        }
        if format == .gif && data.starts(with: Array("GIF87a".utf8)) { return data }
        if format == .tiff && data.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return data }
        return data.starts(with: magic) ? data : Data(magic) + data
    }

    /// Raw bytes made a BMP (a file header, and an INFO header size unless they start with one) or an
    /// ICO (a one-entry directory pointing at them).
    static func wrapped(_ data: Data, as format: ImageFormat) -> Data {
        func le32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { Array($0) } }
        if format == .ico {
            return Data([0, 0, 1, 0, 1, 0, 32, 32, 0, 0, 1, 0, 32, 0] + le32(data.count) + le32(22)) + data
        }
        let head = [UInt8](data.prefix(2))
        let dib = head.count == 2 && [12, 16, 40, 52, 56, 64, 108, 124].contains(head[0]) && head[1] == 0 ? data : Data(le32(40)) + data
        return Data(Array("BM".utf8) + le32(14 + dib.count) + le32(0) + le32(14 + 40)) + dib
    }

    /// One-shot decode; checks the image or the error.
    static func decode(_ data: Data, options: DecodeOptions, label: String, into report: inout FuzzReport) -> Result<Image, DecodeError> {
        do {
            let image = try ImageCoders.decode(data, options: options)
            report.note("\(label): \(image.size)\(image.isAnimated ? " × \(image.frameCount) frames\(image.isStreamed ? " streamed" : "")" : "")")
            check(image, options: options, label: label, into: &report)
            return .success(image)
        } catch {
            return .failure(checkError(error, label: label, into: &report))
        }
    }

    /// Incremental decode in chunks of input-derived sizes (1 byte to a few KB, or all at once),
    /// asking for partial images now and then as a throttled downloader does.
    static func stream(_ data: Data, options: DecodeOptions, parameters: inout FuzzParameters, into report: inout FuzzReport) -> Result<Image, DecodeError> {
        let decoder = ImageCoders.makeIncrementalDecoder(options: options)
        let largest = [1, 16, 512, 6000, data.count][parameters.int(in: 0...4)]
        var offset = 0, chunks = 0, partials = 0
        while offset < data.count {
            let end = min(data.count, offset + parameters.int(in: 1...max(1, largest)))
            decoder.append(data.subdata(in: offset..<end))
            offset = end
            chunks += 1
            if partials < 16 && parameters.oneIn(4) {
                partials += 1
                if let partial = decoder.partialImage() { check(partial, options: options, label: "partial", into: &report) }
            }
        }
        let label = "stream \(chunks) chunks"
        do {
            let image = try decoder.finish()
            report.note("\(label): \(image.size)")
            check(image, options: options, label: label, into: &report)
            return .success(image)
        } catch {
            return .failure(checkError(error, label: label, into: &report))
        }
    }

    /// An image must be well formed, within the box and made from a source within the cap.
    static func check(_ image: Image, options: DecodeOptions, label: String, into report: inout FuzzReport) {
        let w = image.width, h = image.height
        guard w > 0, h > 0 else { return report.fail("\(label): empty image \(image.size)") }
        report.expect(image.pixels.count == w * h * 4, "\(label): \(image.pixels.count) bytes for \(image.size)")
        report.expect(image.frameCount != 1, "\(label): one-frame animation")
        report.expect(image.frameDurations.count == image.frameCount && image.frameDurations.allSatisfy { $0.isFinite && $0 > 0 },
                      "\(label): \(image.frameDurations.count) durations for \(image.frameCount) frames")
        report.expect(image.frameCount <= options.maxFrames, "\(label): \(image.frameCount) frames over maxFrames")
        if image.isStreamed {
            // A streamed frame is decoded when asked for: the second and a later one must be whole
            // canvases (not the last of thousands: reaching it decodes every frame before it, which a
            // player pays one frame at a time, as shown).
            for i in Set([1, min(image.frameCount - 1, 16)]) {
                report.expect(image.frameImage(i).pixels.count == w * h * 4, "\(label): streamed frame \(i) has the wrong size")
            }
        }
        for (i, frame) in image.frames.enumerated() {
            report.expect(frame.pixels.count == w * h * 4, "\(label): frame \(i) has \(frame.pixels.count) bytes")
            report.expect(frame.duration.isFinite && frame.duration > 0, "\(label): frame \(i) lasts \(frame.duration) s")
        }
        report.expect(image.sourceSize.area <= options.pixelLimit, "\(label): source \(image.sourceSize) is over the \(options.pixelLimit)-pixel cap")
        // An animation's frames cover at most the cap in canvas pixels, whatever the box: that
        // bounds the work of compositing and scaling as well as the memory.
        report.expect(image.frames.count * image.sourceSize.area <= options.pixelLimit, "\(label): \(image.frames.count) frames of \(image.sourceSize) exceed the cap")
        if options.firstFrameOnly { report.expect(!image.isAnimated, "\(label): frames despite firstFrameOnly") }
        if let box = options.targetSize {
            report.expect(w <= box.width && h <= box.height, "\(label): \(image.size) does not fit \(box)")
        } else {
            report.expect(image.size == image.sourceSize, "\(label): full decode \(image.size) of a \(image.sourceSize) source")
        }
    }

    /// Decoders throw only `DecodeError`s, with terminal-safe descriptions and honest sizes.
    static func checkError(_ error: any Error, label: String, into report: inout FuzzReport) -> DecodeError {
        guard let error = error as? DecodeError else {
            report.fail("\(label): threw \(type(of: error)), not DecodeError: \(error)")
            return .corrupt(format: "?", reason: "\(error)")
        }
        report.note("\(label): \(error)")
        report.expect(!error.description.unicodeScalars.contains(where: UntrustedText.isUnsafe), "\(label): unsafe characters in \(error.description.debugDescription)")
        if case .tooLarge(let w, let h) = error {
            report.expect(PixelSize(width: w, height: h).area > pixelLimit, "\(label): tooLarge for \(w)×\(h), within the cap")
        }
        return error
    }

    /// Two decodes of the same bytes must agree on success (unless `truncationMayDiffer` and the
    /// failure is `.truncated`), on the source size and (when `sameSize`) on the size, the frame
    /// count and, if `samePixels`, the pixels.
    static func compare(_ a: Result<Image, DecodeError>, _ b: Result<Image, DecodeError>, _ la: String, _ lb: String, sameSize: Bool, samePixels: Bool, truncationMayDiffer: Bool, into report: inout FuzzReport) {
        switch (a, b) {
        case (.success, .failure(.truncated)) where truncationMayDiffer: report.note("\(lb) truncated where \(la) decoded")
        case (.failure(.truncated), .success) where truncationMayDiffer: report.note("\(la) truncated where \(lb) decoded")
        case (.success(let x), .success(let y)):
            report.expect(x.sourceSize == y.sourceSize, "\(la) source \(x.sourceSize) ≠ \(lb) source \(y.sourceSize)")
            if sameSize {
                report.expect(x.size == y.size, "\(la) is \(x.size), \(lb) \(y.size)")
                report.expect(x.frameCount == y.frameCount, "\(la) has \(x.frameCount) frames, \(lb) \(y.frameCount)")
                if samePixels { report.expect(x.pixels == y.pixels, "\(la) and \(lb) pixels differ") }
            }
        case (.success, .failure(let e)): report.fail("\(la) decoded but \(lb) failed: \(e)")
        case (.failure(let e), .success): report.fail("\(la) failed (\(e)) but \(lb) decoded")
        case (.failure, .failure): break
        }
    }
}
