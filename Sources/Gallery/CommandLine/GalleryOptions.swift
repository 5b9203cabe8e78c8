import Foundation
import TerminalGraphics

/// Order in which queued downloads start (`--order`).
public enum LoadOrder: String, Sendable, Hashable, CaseIterable {
    /// First queued, first started.
    case fifo
    /// Last queued, first started (the newest screen wins).
    case lifo
}

/// Every command-line setting, parsed and validated by the `sdgallery` command and handed to the
/// gallery. Settings of layers that are wired later (downloader, cache, renderers, probe, demo server)
/// are carried here unchanged so the integrator can pass them on.
public struct GalleryOptions: Sendable, Hashable {
    /// The images to show: image files, directories, URLs, list files, `-` for a list on standard
    /// input (`URLListIndex.load(arguments:)`); empty with `--demo` / `--probe` / `--clear-cache`.
    public var inputs: [String] = []
    /// Directories given as inputs are searched recursively (`-r`).
    public var recursive = false
    /// Start in grid or list view.
    public var viewMode: ViewMode = .grid
    /// Fixed number of grid columns.
    public var columns: Int?
    /// Renderer.
    public var renderer: RendererOption = .auto
    /// Colour depth; nil = from the terminal.
    public var colors: ColorDepth?
    /// Concurrent downloads in all (at most `ImageDownloaderConfig.maxDownloadsPerHost`, 6, per host).
    public var maxConcurrent = 12
    /// Download order.
    public var order: LoadOrder = .lifo
    /// Request timeout in seconds.
    public var timeout: Double = 30
    /// Extra HTTP headers (only to each URL's own origin unless `locationTrusted`).
    public var headers: [HTTPHeaderField] = []
    /// `--location-trusted`: `headers` follow redirects to other hosts too.
    public var locationTrusted = false
    /// Basic-auth user.
    public var user: String?
    /// Basic-auth password.
    public var password: String?
    /// Accept invalid TLS certificates.
    public var insecure = false
    /// Keep cookies between requests.
    public var cookies = false
    /// `--cacert`: a PEM file of certificate authorities to trust.
    public var caCertificateFile: String?
    /// Credentials from a netrc file (`--netrc`: "" for `~/.netrc`; `--netrc-file FILE`); nil: none.
    public var netrcFile: String?
    /// `--proxy`: the proxy for every request (else the environment's).
    public var proxy: String?
    /// Disk cache folder; nil = the default under XDG_CACHE_HOME.
    public var cacheDirectory: String?
    /// Memory cache only.
    public var noDiskCache = false
    /// Memory cache limit in MB.
    public var memoryLimitMB: Int?
    /// Disk cache limit in MB.
    public var diskLimitMB: Int?
    /// `--decode-memory`: MB of working memory the decodes in flight may hold at once
    /// (`DecodeMemory`; nil: its default, a quarter of the RAM, at most 1 GiB).
    public var decodeMemoryMB: Int?
    /// Empty the disk cache first.
    public var clearCache = false
    /// Where `s` saves originals (nil: the current directory).
    public var saveDirectory: String?
    /// Start with refreshCached (revalidate every entry).
    public var refresh = false
    /// Turn off progressive rendering.
    public var noProgressive = false
    /// `--animate`: whether cells play their animations, within how many bytes per second.
    public var animate = AnimationSetting.on
    /// One-shot contact sheet to stdout.
    public var printSheet = false
    /// Print counters on exit.
    public var stats = false
    /// Print the terminal probe and exit.
    public var probe = false
    /// Serve the bundled demo images and open them.
    public var demo = false
    /// Demo bandwidth in bytes per second.
    public var demoRate: Int = 400_000

    /// Default settings.
    public init() {}

    /// Parses `Name: value` into a header; nil when malformed (no colon, empty name, control characters).
    public static func parseHeader(_ text: String) -> HTTPHeaderField? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains),
              !value.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return nil }
        return HTTPHeaderField(name: name, value: value)
    }

    /// Parses a rate such as `200000`, `200k`, `1.5M` (bytes per second).
    public static func parseRate(_ text: String) -> Int? {
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        var multiplier = 1.0
        var number = Substring(lower)
        if number.hasSuffix("k") { multiplier = 1000; number = number.dropLast() }
        else if number.hasSuffix("m") { multiplier = 1_000_000; number = number.dropLast() }
        guard let value = Double(number), value > 0, value * multiplier < 1e12 else { return nil }
        return Int(value * multiplier)
    }
}

/// One `--header Name: value`.
public struct HTTPHeaderField: Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
