import Foundation

/// One fuzz target: a function of arbitrary bytes that must never crash, hang, leak or allocate
/// beyond the caps, and whose result must satisfy the invariants checked in its `run`.
///
/// The same functions serve three callers: libFuzzer (`sdgallery-fuzz fuzz TARGET`, built by
/// `scripts/fuzz` with `-sanitize=fuzzer,address`), the replayer (`sdgallery-fuzz TARGET FILE…`, any
/// build) and the regression tests, which replay the committed corpora and crash inputs.
///
/// ```swift
/// let report = FuzzTarget.png.run(Data(contentsOf: url))
/// report.problems   // [] unless an invariant broke
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// JPEG: the bytes (given a JPEG signature if they lack one) through sniff, one-shot, boxed and
    /// incremental decoding.
    case jpeg
    /// PNG, as `jpeg`.
    case png
    /// GIF, as `jpeg`.
    case gif
    /// WebP, as `jpeg` (the RIFF header is added when missing).
    case webp
    /// AVIF, as `jpeg` (an `ftyp` box naming `avif` is added when missing).
    case avif
    /// HEIC, as `jpeg` (an `ftyp` box naming `heic` is added when missing).
    case heic
    /// JPEG XL, as `jpeg` (a bare codestream's signature FF 0A is added when missing).
    case jxl
    /// SVG, as `jpeg` ("<svg " is put in front when sniffing would not say SVG).
    case svg
    /// Anything: sniffing decides (text, HTML, SVG and the undecodable formats included).
    case sniffAny = "sniff-any"
    /// `URLList.parse` on the bytes as UTF-8 list text.
    case urllist
    /// `ProbeReplyParser.parse` on the bytes as terminal replies, then capability resolution.
    case probe
    /// `URLListIndex.load(arguments:recursive:)` over a directory tree the bytes build: folders,
    /// images, list files, links to themselves, their parents and each other, dangling links.
    case tree
    /// A progressive JPEG whose scan script (and entropy data) the bytes give: repeated, invalid
    /// and out-of-order scans through the image target's checks (`JPEGScanScript`).
    case jpegScans = "jpeg-scans"
    /// TIFF (libtiff), as `jpeg` ("II*\0" added when missing).
    case tiff
    /// BMP (our decoder), as `jpeg` (a file header added when missing).
    case bmp
    /// ICO (our decoder; PNG and DIB entries), as `jpeg` (a one-entry directory added when missing).
    case ico

    /// Largest input worth trying (libFuzzer's `-max_len` unless given): images big enough for a
    /// few frames or scans, texts of a few dozen lines or replies.
    public var maxLength: Int {
        switch self {
        case .jpeg, .png, .gif, .webp, .avif, .heic, .jxl, .svg, .sniffAny: return 16_384
        case .urllist, .probe, .tree: return 4096
        case .jpegScans: return 16_384
        case .tiff, .bmp, .ico: return 16_384
        }
    }

    /// One line on what the target exercises.
    public var summary: String {
        switch self {
        case .jpeg: return "JPEG bytes: sniff, full decode, boxed decode, incremental feed"
        case .png: return "PNG bytes: sniff, full decode, boxed decode, incremental feed"
        case .gif: return "GIF bytes: sniff, full decode, boxed decode, incremental feed"
        case .webp: return "WebP bytes: sniff, full decode, boxed decode, incremental feed"
        case .avif: return "AVIF bytes: sniff, full decode, boxed decode, incremental feed"
        case .heic: return "HEIC bytes: sniff, full decode, boxed decode, incremental feed"
        case .jxl: return "JPEG XL bytes: sniff, full decode, boxed decode, incremental feed"
        case .svg: return "SVG text: sniff, full render, boxed render, incremental feed"
        case .sniffAny: return "any bytes: sniff, then the generic decode paths"
        case .urllist: return "URL-list text: URLList.parse"
        case .probe: return "terminal reply bytes: ProbeReplyParser.parse + capability resolution"
        case .tree: return "a directory tree with links, then command-line arguments: URLListIndex.load"
        case .jpegScans: return "a progressive JPEG scan script: full, boxed and incremental decodes"
        case .tiff: return "TIFF bytes: sniff, full decode, boxed decode, incremental feed"
        case .bmp: return "BMP bytes: sniff, full decode, boxed decode, incremental feed"
        case .ico: return "ICO bytes: sniff, full decode, boxed decode, incremental feed"
        }
    }

    /// Runs the target on `data` and reports what came out and every broken invariant.
    public func run(_ data: Data) -> FuzzReport {
        switch self {
        case .jpeg: return ImageFuzzing.run(data, forcing: .jpeg)
        case .png: return ImageFuzzing.run(data, forcing: .png)
        case .gif: return ImageFuzzing.run(data, forcing: .gif)
        case .webp: return ImageFuzzing.run(data, forcing: .webp)
        case .avif: return ImageFuzzing.run(data, forcing: .avif)
        case .heic: return ImageFuzzing.run(data, forcing: .heic)
        case .jxl: return ImageFuzzing.run(data, forcing: .jxl)
        case .svg: return ImageFuzzing.run(data, forcing: .svg)
        case .sniffAny: return ImageFuzzing.run(data, forcing: nil)
        case .urllist: return TextFuzzing.urlList(data)
        case .probe: return TextFuzzing.probeReplies(data)
        case .tree: return DirectoryTreeFuzzing.run(data)
        case .jpegScans: return JPEGScanScript.run(data)
        case .tiff: return ImageFuzzing.run(data, forcing: .tiff)
        case .bmp: return ImageFuzzing.run(data, forcing: .bmp)
        case .ico: return ImageFuzzing.run(data, forcing: .ico)
        }
    }

    /// The target named by the environment variable `SDG_FUZZ_TARGET` (read once): how libFuzzer's
    /// callback, and the child processes libFuzzer may start, know what to run.
    public static let fromEnvironment: FuzzTarget? = ProcessInfo.processInfo.environment["SDG_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:))
}
