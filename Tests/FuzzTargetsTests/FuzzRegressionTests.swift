import Foundation
@testable import FuzzTargets
import ImageCodecs
import TerminalGraphics
import Testing
import TestSupport

/// Replays the committed fuzz seeds (Tests/Fuzz/corpus) and every input the fuzzer ever broke
/// something with (Tests/Fuzz/regressions) through the same target functions libFuzzer calls:
/// each must end in an image or a clean error with every invariant intact. Named tests below pin
/// down each finding.
@Suite struct FuzzRegressionTests {
    static let fuzzDirectory = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fuzz")

    /// The committed inputs of `target` under `kind` ("corpus" or "regressions"), sorted.
    static func inputs(_ target: FuzzTarget, in kind: String) -> [URL] {
        let dir = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().map { dir.appendingPathComponent($0) }
    }

    static func input(_ path: String) throws -> Data {
        try Data(contentsOf: fuzzDirectory.appendingPathComponent(path))
    }

    /// Runs the inputs on a thread of their own (the cooperative pool has two threads) and returns
    /// one line per input that broke an invariant.
    static func replay(_ target: FuzzTarget, _ files: [URL]) async throws -> [String] {
        try await Blocking.run {
            try files.compactMap { file -> String? in
                let report = target.run(try Data(contentsOf: file))
                return report.problems.isEmpty ? nil : "\(file.lastPathComponent): \(report)"
            }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedCorpusReplaysCleanly(target: FuzzTarget) async throws {
        let files = Self.inputs(target, in: "corpus")
        #expect(files.count >= 4, "\(target.rawValue) has \(files.count) seeds")
        let failures = try await Self.replay(target, files)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(arguments: FuzzTarget.allCases)
    func fuzzFindingsReplayCleanly(target: FuzzTarget) async throws {
        let failures = try await Self.replay(target, Self.inputs(target, in: "regressions"))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Found by the gif target: a damaged extension block after a complete first frame failed the
    /// whole decode (while a damaged image block there kept the frames, and firstFrameOnly
    /// decoded). Frames decoded before the damage are kept, whatever the damaged block is.
    @Test func gifDamagedExtensionAfterFirstFrameKeepsTheFrame() throws {
        let data = try Self.input("regressions/gif/damaged-extension-after-first-frame.gif")
        let full = try ImageCoders.decode(data)
        #expect(full.size == PixelSize(width: 40, height: 30))
        let first = try ImageCoders.decode(data, options: DecodeOptions(firstFrameOnly: true))
        #expect(first.pixels == full.pixels)
    }

    /// Found by the jpeg target: libjpeg's arithmetic decoder cannot suspend, so an arithmetic-coded
    /// JPEG (SOF9–SOF15) fed in chunks failed with "Suspension not allowed here" as soon as a partial
    /// image was asked for (or 4 KB had arrived), though it decoded in one go. Such files are now
    /// decoded once all bytes are in; data ending early is `.truncated`.
    @Test func arithmeticCodedJPEGDecodesWhenFedInChunks() throws {
        for name in ["corpus/jpeg/arithmetic-progressive.jpg", "regressions/jpeg/arithmetic-coded-fed-in-chunks.jpg"] {
            let data = try Self.input(name)
            let oneShot = try ImageCoders.decode(data)
            let decoder = ImageCoders.makeIncrementalDecoder()
            for start in stride(from: 0, to: data.count, by: 16) {
                decoder.append(data.subdata(in: start..<min(data.count, start + 16)))
                _ = decoder.partialImage()
            }
            let streamed = try decoder.finish()
            #expect(streamed.size == oneShot.size && streamed.pixels == oneShot.pixels, "\(name)")
        }
        let data = try Self.input("corpus/jpeg/arithmetic-progressive.jpg")
        let cut = ImageCoders.makeIncrementalDecoder()
        cut.append(data.prefix(data.count - 40))
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try cut.finish() }
        #expect(throws: DecodeError.truncated(format: "JPEG")) { try ImageCoders.decode(data.prefix(data.count - 40)) }
    }

    /// Found by the probe target: an OSC 11 reply with a signed component (`rgb:-f/ff/ff`) trapped
    /// (Int(_:radix:) accepts a sign; the negative value then overflowed UInt8), so a terminal's
    /// reply, or keys typed during the probe, could crash the program. Components are hex digits.
    @Test func oscColourWithASignIsIgnoredNotATrap() throws {
        for spec in ["-f/ff/ff", "+f/ff/ff", "ff/-0/ff", "f/f/ f", "0x/ff/ff"] {
            let replies = ProbeReplyParser.parse(Array("\u{1B}]11;rgb:\(spec)\u{1B}\\\u{1B}[?62;4c".utf8))
            #expect(replies.backgroundColor == nil, "\(spec)")
            #expect(replies.supportsSixel)
        }
        let fine = ProbeReplyParser.parse(Array("\u{1B}]11;rgb:ffff/8000/0\u{07}".utf8))
        #expect(fine.backgroundColor == RGBColor(r: 255, g: 128, b: 0))
        let found = ProbeReplyParser.parse(try Self.input("regressions/probe/osc11-negative-hex-component.bin"))
        #expect(found.backgroundColor == nil)
    }

    /// Found by reading the targets' invariants against the decoders: animation frames were
    /// budgeted in *target* pixels, so a small box allowed thousands of frames, each composited and
    /// scaled from the whole canvas. A 75 KB GIF of 5000 one-pixel frames on a 1000×1000 canvas took
    /// 250 s for one thumbnail (debug build). Frames held now cover at most the pixel cap in canvas
    /// pixels, so a boxed decode holds no more frames than a full one; past the cap, both stream
    /// their frames (`FrameStream`: one frame's work at a time, as each is shown).
    @Test(arguments: ["corpus/gif/many-frames.gif", "corpus/webp/many-frames.webp"])
    func smallBoxDoesNotBuyMoreAnimationFrames(path: String) throws {
        let data = try Self.input(path)
        let limit = 50_000  // five 100×100 canvases
        let full = try ImageCoders.decode(data, options: DecodeOptions(pixelLimit: limit))
        let thumb = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 8, height: 8), pixelLimit: limit))
        #expect(full.sourceSize == PixelSize(width: 100, height: 100))
        #expect(full.isStreamed && full.frames.isEmpty)
        #expect(thumb.isStreamed && thumb.frames.isEmpty)
        #expect(thumb.size == PixelSize(width: 8, height: 8))
        let unlimited = try ImageCoders.decode(data, options: DecodeOptions(targetSize: PixelSize(width: 8, height: 8)))
        #expect(unlimited.frames.count > 5 && !unlimited.isStreamed)  // within the default cap every frame is held
        #expect(full.frameCount == unlimited.frameCount && thumb.frameCount == unlimited.frameCount)
    }

    /// The image targets give an input without the format's signature one, so mutations never
    /// leave the decoder under test.
    @Test func imageTargetsDecodeTheirOwnFormatOnly() {
        for target in [FuzzTarget.jpeg, .png, .gif, .webp] {
            let report = target.run(Data("hello".utf8))
            #expect(report.problems.isEmpty, "\(report)")
            #expect(report.steps.first == "sniffed \(target == .webp ? "WebP" : target.rawValue.uppercased())", "\(report.steps)")
        }
    }
    /// Found by the jpeg-scans target: a progressive file of one row of blocks with more scans than
    /// the limit (294 of 100), cut short, failed as "truncated" one-shot and shown incrementally
    /// (with its EOI, it failed both ways): rendering the last scan allowed made libjpeg read on
    /// into the scans left out. The input now ends at the limit as if an EOI followed, so what comes
    /// after cannot matter: cut, whole and fed in any chunks, the same image.
    @Test func jpegScansCutAfterTheLimitDecodeAsTheWholeFile() throws {
        let script = try Self.input("regressions/jpeg-scans/truncated-after-more-scans-than-the-limit.bin")
        let (cut, scans) = JPEGScanScript.file(from: script)
        #expect(scans == 294 && cut.suffix(2) != Data([0xFF, 0xD9]))
        let whole = cut + Data([0xFF, 0xD9])
        let expected = try ImageCoders.decode(whole)
        #expect(expected.size == PixelSize(width: 6, height: 6))
        #expect(try ImageCoders.decode(cut).pixels == expected.pixels)
        for chunk in [1, 7, 4096] {
            let decoder = ImageCoders.makeIncrementalDecoder(options: DecodeOptions())
            for offset in stride(from: 0, to: cut.count, by: chunk) {
                decoder.append(cut.subdata(in: offset..<min(cut.count, offset + chunk)))
                _ = decoder.partialImage()
            }
            #expect(try decoder.finish().pixels == expected.pixels, "fed in chunks of \(chunk) B")
        }
    }

    /// Found by the heic target (300 s): an AV1 item with no extent, in a file whose first ftyp (the
    /// one the target puts in front) does not name avif, went to libheif, whose dav1d plugin handed
    /// dav1d an empty buffer: dav1d printed "Input validation check … failed" on stderr and the
    /// buffer leaked (40 bytes a decode). A coded image of no bytes is refused before libheif.
    @Test func heicAnAV1ImageWithoutDataIsRefusedBeforeLibheif() throws {
        let found = try Self.input("regressions/heic/av1-image-without-data-leaked-in-libheifs-dav1d-plugin.heic")
        let data = ImageFuzzing.withSignature(found, of: .heic)
        #expect(data.count > found.count)  // the target's ftyp (heic, mif1) in front
        #expect(throws: DecodeError.corrupt(format: "HEIC", reason: "an image without data")) { try ImageCoders.decode(data) }
    }
}
