import ArgumentParser
import Foundation
import Gallery
import TerminalGraphics

/// The `sdgallery` command: a terminal image gallery for lists of image URLs.
@main
struct SDGallery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdgallery",
        abstract: "A terminal image gallery for lists of image URLs.",
        discussion: """
        Each argument is an image file, a directory (its images in natural order; -r for \
        subdirectories), an http(s) or file URL, or a list file: images one per line (an http(s) \
        URL, a file:// URL or a local path, optionally followed by whitespace and a title; # starts \
        a comment). Use - to read a list from standard input. See sdgallery(1) for the keys.
        """,
        version: VersionReport.text
    )

    @Argument(help: ArgumentHelp("Images: image files, directories, http(s)/file URLs, list files, '-' for a list on standard input.", valueName: "IMAGE|DIR|URL|LIST"))
    var inputs: [String] = []

    @Flag(name: [.customShort("r"), .customLong("recursive")], help: "Take the images of subdirectories too.")
    var recursive = false

    @Flag(exclusivity: .exclusive, help: "Start in grid (default) or list view.")
    var view: ViewFlag = .grid

    @Option(help: ArgumentHelp("Number of grid columns (default: from the cell pixel size).", valueName: "N"))
    var columns: Int?

    @Option(help: "Image renderer: auto, sixel, kitty, kitty-placeholders, iterm2, blocks, quadrants, sextants or ascii.")
    var renderer: RendererOption = .auto

    @Option(help: "Colour depth: truecolor, 256, 16 or mono (default: from the terminal; mono draws ASCII).")
    var colors: ColorDepth?

    @Option(name: .customLong("max-concurrent"), help: ArgumentHelp("Concurrent downloads in all (1-64; at most 6 per host).", valueName: "N"))
    var maxConcurrent: Int = 12

    @Option(help: "Download order: fifo or lifo (the newest screen first).")
    var order: LoadOrder = .lifo

    @Option(help: ArgumentHelp("Request timeout in seconds.", valueName: "S"))
    var timeout: Double = 30

    @Option(name: .customLong("header"), help: ArgumentHelp("Extra HTTP header 'Name: value' (repeatable).", valueName: "K: V"))
    var headers: [String] = []

    @Flag(name: .customLong("location-trusted"), help: "Send --header values to the hosts redirects lead to as well (default: only to each URL's own origin).")
    var locationTrusted = false

    @Option(help: ArgumentHelp("User for HTTP basic authentication; the password comes from SDGALLERY_PASSWORD, --netrc or a prompt.", valueName: "U"))
    var user: String?

    @Option(help: ArgumentHelp("Password for --user (visible in ps: prefer SDGALLERY_PASSWORD, --netrc or the prompt).", valueName: "P"))
    var password: String?

    @Flag(help: "Read credentials from ~/.netrc (libcurl's netrc support).")
    var netrc = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Read credentials from this netrc file.", valueName: "FILE"))
    var netrcFile: String?

    @Flag(help: "Accept invalid TLS certificates.")
    var insecure = false

    @Flag(help: "Keep cookies set by the servers for later requests.")
    var cookies = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Trust the certificate authorities in this PEM file (a private CA) instead of the system's.", valueName: "file"))
    var caCertificateFile: String?

    @Option(help: ArgumentHelp("Send every request through this proxy (http://host:port); without it, http_proxy, https_proxy and no_proxy apply.", valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Disk cache folder.", valueName: "D"))
    var cacheDir: String?

    @Flag(name: .customLong("no-disk-cache"), help: "Keep images in memory only.")
    var noDiskCache = false

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Memory cache limit in MB (default 96).", valueName: "MB"))
    var memoryLimit: Int?

    @Option(name: .customLong("disk-limit"), help: ArgumentHelp("Disk cache limit in MB, partial downloads included (default 512).", valueName: "MB"))
    var diskLimit: Int?

    @Option(name: .customLong("decode-memory"), help: ArgumentHelp("Working memory of the decodes in flight, in MB (default: a quarter of the RAM, at most 1024).", valueName: "MB"))
    var decodeMemory: Int?

    @Flag(name: .customLong("clear-cache"), help: "Empty the disk cache before starting.")
    var clearCache = false

    @Option(name: .customLong("save-dir"), help: ArgumentHelp("Where the s key saves originals (default: the current directory).", valueName: "DIR"))
    var saveDir: String?

    @Flag(help: "Revalidate every cached image with the server (ETag / Last-Modified).")
    var refresh = false

    @Flag(name: .customLong("no-progressive"), help: "Show images only when complete.")
    var noProgressive = false

    @Option(help: ArgumentHelp("Play animations in the grid and list: on, off, or on within N bytes per second to the terminal (e.g. 500k; default 1M). The full view plays in any case; a key pauses (a).", valueName: "off|on|N"))
    var animate: String = "on"

    @Flag(name: .customLong("print"), help: "Print a contact sheet to standard output and exit.")
    var printSheet = false

    @Flag(help: "Print counters on exit.")
    var stats = false

    @Flag(help: "Print what the terminal supports and exit.")
    var probe = false

    @Flag(help: "Open the bundled demo images.")
    var demo = false

    @Option(name: .customLong("demo-rate"), help: ArgumentHelp("Demo bandwidth in bytes per second (e.g. 200k, 1.5M).", valueName: "RATE"))
    var demoRate: String = "400k"

    func validate() throws {
        if inputs.isEmpty && !demo && !probe && !clearCache {
            throw ValidationError("Missing the images: files, directories, URLs or a list FILE ('-' for standard input), or --demo.")
        }
        if !inputs.isEmpty && demo { throw ValidationError("Give either images or --demo, not both.") }
        if let columns, !(1...64).contains(columns) { throw ValidationError("--columns must be between 1 and 64.") }
        if !(1...64).contains(maxConcurrent) { throw ValidationError("--max-concurrent must be between 1 and 64.") }
        if !(timeout > 0 && timeout <= 3600) { throw ValidationError("--timeout must be between 0 and 3600 seconds.") }
        for header in headers where GalleryOptions.parseHeader(header) == nil {
            throw ValidationError("--header '\(TerminalText.sanitize(header))' is not of the form 'Name: value'.")
        }
        if password != nil && user == nil { throw ValidationError("--password needs --user.") }
        if let caCertificateFile, !FileManager.default.isReadableFile(atPath: caCertificateFile) {
            throw ValidationError("--cacert '\(TerminalText.sanitize(caCertificateFile))': no readable file there.")
        }
        if let proxy, URL(string: proxy)?.host == nil, !proxy.contains(":") {
            throw ValidationError("--proxy '\(TerminalText.sanitize(proxy))' is not a proxy URL (http://host:port).")
        }
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit must be positive.") }
        if let diskLimit, diskLimit <= 0 { throw ValidationError("--disk-limit must be positive.") }
        if let decodeMemory, decodeMemory <= 0 || decodeMemory > 1 << 30 { throw ValidationError("--decode-memory must be a positive number of MB.") }
        if noDiskCache && cacheDir != nil { throw ValidationError("--no-disk-cache and --cache-dir contradict each other.") }
        if AnimationSetting(parsing: animate) == nil { throw ValidationError("--animate '\(TerminalText.sanitize(animate))' is not off, on or a rate (e.g. 500k).") }
        if GalleryOptions.parseRate(demoRate) == nil { throw ValidationError("--demo-rate '\(TerminalText.sanitize(demoRate))' is not a rate (e.g. 200k).") }
    }

    /// The validated settings as the gallery's options.
    var options: GalleryOptions {
        var o = GalleryOptions()
        o.inputs = inputs
        o.recursive = recursive
        o.viewMode = view == .list ? .list : .grid
        o.columns = columns
        o.renderer = renderer
        o.colors = colors
        o.maxConcurrent = maxConcurrent
        o.order = order
        o.timeout = timeout
        o.headers = headers.compactMap(GalleryOptions.parseHeader)
        o.locationTrusted = locationTrusted
        o.user = user
        o.password = password
        o.netrcFile = netrcFile ?? (netrc ? "" : nil)
        o.insecure = insecure
        o.cookies = cookies
        o.caCertificateFile = caCertificateFile
        o.proxy = proxy
        o.cacheDirectory = cacheDir
        o.noDiskCache = noDiskCache
        o.memoryLimitMB = memoryLimit
        o.diskLimitMB = diskLimit
        o.decodeMemoryMB = decodeMemory
        o.clearCache = clearCache
        o.refresh = refresh
        o.saveDirectory = saveDir
        o.noProgressive = noProgressive
        o.animate = AnimationSetting(parsing: animate) ?? .on
        o.printSheet = printSheet
        o.stats = stats
        o.probe = probe
        o.demo = demo
        o.demoRate = GalleryOptions.parseRate(demoRate) ?? 400_000
        return o
    }

    /// Parses, runs, and maps usage errors to exit status 2 (the parser's default is 64).
    static func main() {
        do {
            let command = try parse()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }

    func run() throws {
        var options = options
        let credentials = Credentials.resolve(
            user: user, password: password, environment: ProcessInfo.processInfo.environment,
            netrc: options.netrcFile != nil, prompt: Credentials.terminalPrompt)
        for warning in credentials.warnings { FileHandle.standardError.write(Data("sdgallery: warning: \(warning)\n".utf8)) }
        if let error = credentials.error {
            FileHandle.standardError.write(Data("sdgallery: \(error)\n".utf8))
            throw ExitCode(2)
        }
        options.password = credentials.password
        let status = GalleryRunner.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}

/// `--grid` / `--list`.
enum ViewFlag: String, EnumerableFlag {
    case grid, list

    static func help(for value: ViewFlag) -> ArgumentHelp? {
        value == .grid ? "Start in grid view (default)." : "Start in list view."
    }
}

extension RendererOption: ExpressibleByArgument {}
extension ColorDepth: ExpressibleByArgument {}
extension LoadOrder: ExpressibleByArgument {}
