import Foundation

/// Settings of a `DiskCache`.
public struct DiskCacheConfig: Sendable {
    /// Default age limit: 7 days since last access.
    public static let defaultMaxAge: TimeInterval = 7 * 24 * 3600
    /// Default size limit: 512 MB.
    public static let defaultMaxSize = 512 << 20

    /// The cache directory (created 0700 if missing).
    public var directory: URL
    /// Entries not accessed for longer than this are expired (never served, swept).
    public var maxAge: TimeInterval
    /// Total size of the entries (file sizes, headers included). A store that crosses it trims least
    /// recently used entries down to `trimRatio` of it, in the background.
    public var maxSize: Int
    /// Fraction of `maxSize` a trim goes down to (0.7).
    public var trimRatio: Double
    /// Whether a store `fsync`s the file before renaming it into place (crash safety; slower).
    public var fsyncWrites: Bool
    /// A full sweep (expired entries, dead writers' temp files, size re-sync) runs at start-up and then
    /// again after a store once this much time has passed.
    public var sweepInterval: TimeInterval
    /// The time source for ages and last-access stamps (tests inject one).
    public var clock: @Sendable () -> Date
    /// Where errors and maintenance reports go (any thread).
    public var onEvent: (@Sendable (CacheEvent) -> Void)?

    /// Creates a configuration; every argument has the documented default.
    public init(
        directory: URL = DiskCacheConfig.defaultDirectory(),
        maxAge: TimeInterval = DiskCacheConfig.defaultMaxAge,
        maxSize: Int = DiskCacheConfig.defaultMaxSize,
        trimRatio: Double = 0.7,
        fsyncWrites: Bool = true,
        sweepInterval: TimeInterval = 3600,
        clock: @escaping @Sendable () -> Date = { Date() },
        onEvent: (@Sendable (CacheEvent) -> Void)? = nil
    ) {
        self.directory = directory
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.trimRatio = trimRatio
        self.fsyncWrites = fsyncWrites
        self.sweepInterval = sweepInterval
        self.clock = clock
        self.onEvent = onEvent
    }

    /// `$XDG_CACHE_HOME/sdgallery`, or `~/.cache/sdgallery` when XDG_CACHE_HOME is unset, empty or
    /// relative (the XDG spec says to ignore relative paths).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("sdgallery", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent("sdgallery", isDirectory: true)
    }
}
