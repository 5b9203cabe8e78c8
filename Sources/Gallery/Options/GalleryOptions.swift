import Foundation

/// Which renderer draws images (`--renderer`).
public enum RendererChoice: String, Sendable, Hashable, CaseIterable {
    /// Chosen from the terminal probe.
    case auto
    /// DEC sixel graphics.
    case sixel
    /// kitty graphics protocol.
    case kitty
    /// `▀` half blocks in colour.
    case blocks
    /// ASCII luminance ramp.
    case ascii
}

/// Colour depth for text renderers (`--colors`).
public enum ColorChoice: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour.
    case truecolor
    /// xterm 256-colour palette.
    case palette256 = "256"
    /// The 16 basic colours.
    case basic16 = "16"
}

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
    /// The list file, "-" for standard input, nil with `--demo` / `--probe` / `--clear-cache`.
    public var listPath: String?
    /// Start in grid or list view.
    public var viewMode: ViewMode = .grid
    /// Fixed number of grid columns.
    public var columns: Int?
    /// Renderer.
    public var renderer: RendererChoice = .auto
    /// Colour depth; nil = from the terminal.
    public var colors: ColorChoice?
    /// Concurrent downloads.
    public var maxConcurrent = 6
    /// Download order.
    public var order: LoadOrder = .lifo
    /// Request timeout in seconds.
    public var timeout: Double = 30
    /// Extra HTTP headers (name, value).
    public var headers: [(name: String, value: String)] = []
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
    /// Empty the disk cache first.
    public var clearCache = false
    /// Start with refreshCached (revalidate every entry).
    public var refresh = false
    /// Turn off progressive rendering.
    public var noProgressive = false
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

    /// Options given that this build does not use yet (their layers are wired later), for a notice.
    public var unwiredOptions: [String] {
        var names: [String] = []
        if renderer == .sixel || renderer == .kitty { names.append("--renderer \(renderer.rawValue)") }
        if maxConcurrent != 6 { names.append("--max-concurrent") }
        if order != .lifo { names.append("--order") }
        if timeout != 30 { names.append("--timeout") }
        if !headers.isEmpty { names.append("--header") }
        if user != nil { names.append("--user/--password") }
        if insecure { names.append("--insecure") }
        if cookies { names.append("--cookies") }
        if cacheDirectory != nil { names.append("--cache-dir") }
        if noDiskCache { names.append("--no-disk-cache") }
        if memoryLimitMB != nil { names.append("--memory-limit") }
        if diskLimitMB != nil { names.append("--disk-limit") }
        if refresh { names.append("--refresh") }
        return names
    }

    /// Equality over every field (headers compared pairwise).
    public static func == (lhs: GalleryOptions, rhs: GalleryOptions) -> Bool {
        lhs.description == rhs.description
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// A stable dump of every field (for tests and `--stats`).
    var description: String {
        let headerText = headers.map { "\($0.name): \($0.value)" }.joined(separator: "|")
        return [listPath ?? "-none-", viewMode.rawValue, "\(columns ?? 0)", renderer.rawValue, colors?.rawValue ?? "auto",
                "\(maxConcurrent)", order.rawValue, "\(timeout)", headerText, user ?? "", password ?? "", "\(insecure)",
                "\(cookies)", caCertificateFile ?? "", proxy ?? "", cacheDirectory ?? "", "\(noDiskCache)", "\(memoryLimitMB ?? 0)", "\(diskLimitMB ?? 0)",
                "\(clearCache)", "\(refresh)", "\(noProgressive)", "\(printSheet)", "\(stats)", "\(probe)", "\(demo)", "\(demoRate)"]
            .joined(separator: ";")
    }

    /// Parses `Name: value` into a header; nil when malformed (no colon, empty name, control characters).
    public static func parseHeader(_ text: String) -> (name: String, value: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains),
              !value.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return nil }
        return (name, value)
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
