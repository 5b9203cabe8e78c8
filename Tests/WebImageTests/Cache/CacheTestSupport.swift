import Foundation
import ImageCodecs
import Locking
import TestSupport
@testable import WebImage

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let now = Locked(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded()))
    func callAsFunction() -> Date { now.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    var closure: @Sendable () -> Date { { self() } }
}

/// Collects cache events.
final class EventLog: Sendable {
    private let events = Locked<[CacheEvent]>([])
    var sink: @Sendable (CacheEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }
    var all: [CacheEvent] { events.withLock { $0 } }
    var errors: [CacheError] { all.compactMap { if case .error(let e) = $0 { return e } else { return nil } } }
    var corruptCount: Int { errors.filter { if case .corruptEntry = $0 { return true } else { return false } }.count }
}

/// A tiny deterministic "image format" so disk hits can be decoded without the real codecs:
/// "TIMG", width (UInt16 LE), height (UInt16 LE), one RGBA colour. The decoder honours the target box.
enum TinyImage {
    static func data(width: Int, height: Int, color: [UInt8] = [10, 20, 30, 255]) -> Data {
        var bytes = Array("TIMG".utf8)
        bytes += [UInt8(width & 0xff), UInt8(width >> 8), UInt8(height & 0xff), UInt8(height >> 8)]
        return Data(bytes + color)
    }

    static let decoder: @Sendable (Data, DecodeOptions) throws -> Image = { data, options in
        let b = [UInt8](data)
        guard b.count == 12, Array(b[0..<4]) == Array("TIMG".utf8) else { throw DecodeError.corrupt(format: "TIMG", reason: "bad bytes") }
        let source = PixelSize(width: Int(b[4]) | Int(b[5]) << 8, height: Int(b[6]) | Int(b[7]) << 8)
        let size = options.targetSize.map { source.fitting(in: $0) } ?? source
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.area * 4)
        for _ in 0..<size.area { pixels += b[8..<12] }
        return Image(width: size.width, height: size.height, pixels: pixels, sourceSize: source)
    }
}

/// Deterministic bytes for a key, so any served entry can be checked byte for byte.
func payload(_ seed: Int, count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7) })
}

/// Sum of the sizes of the regular files in `dir` (what the running size must equal).
func directorySize(_ dir: URL, includeTemp: Bool = false) -> Int {
    POSIXFile.names(in: dir.path).reduce(0) { total, name in
        guard includeTemp || !name.hasPrefix(DiskCache.tempPrefix), let st = POSIXFile.status(path: dir.path + "/" + name), st.isRegular else { return total }
        return total + st.size
    }
}

/// Names in `dir` that are temp files.
func tempFiles(_ dir: URL) -> [String] { POSIXFile.names(in: dir.path).filter { $0.hasPrefix(DiskCache.tempPrefix) } }

/// A solid image of `width`×`height` (cost = w·h·4).
func solidImage(_ width: Int, _ height: Int) -> Image {
    Image(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height * 4))
}

/// A disk cache on a fresh directory.
func makeDisk(
    _ dir: URL? = nil, clock: TestClock = TestClock(), maxSize: Int = 1 << 30, maxAge: TimeInterval = 7 * 86400,
    fsync: Bool = false, events: EventLog = EventLog()
) throws -> (DiskCache, URL) {
    let directory = try dir ?? Fixtures.temporaryDirectory("sdgallery-cache").appendingPathComponent("cache")
    let config = DiskCacheConfig(directory: directory, maxAge: maxAge, maxSize: maxSize, fsyncWrites: fsync, clock: clock.closure, onEvent: events.sink)
    let disk = try DiskCache(config: config)
    disk.waitUntilIdle()
    return (disk, directory)
}
