import Foundation
import ImageCodecs
import Locking
import TestSupport
@testable import WebImage

/// Collects callbacks from any thread and lets a test wait for them (with a timeout, never hanging).
final class CallbackRecorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    /// Appends one value.
    func record(_ value: Value) { values.withLock { $0.append(value) } }

    /// Everything recorded so far.
    var all: [Value] { values.withLock { $0 } }

    /// Waits until `predicate` holds (polling every 5 ms); false on timeout.
    func wait(timeout: Duration = .seconds(20), until predicate: @Sendable ([Value]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(all)
    }

    /// Waits until at least `count` values arrived.
    func wait(count: Int, timeout: Duration = .seconds(20)) async -> Bool {
        await wait(timeout: timeout) { $0.count >= count }
    }
}

/// Result recorder shorthand.
typealias ResultRecorder = CallbackRecorder<Result<DownloadResult, DownloadError>>

extension CallbackRecorder where Value == Result<DownloadResult, DownloadError> {
    /// Final results and errors only (no partial images).
    var finals: [Result<DownloadResult, DownloadError>] {
        all.filter { if case .success(let r) = $0 { return r.isFinished } else { return true } }
    }
}

/// Test doubles and payloads.
enum DownloaderTestKit {
    /// Magic prefix the fake decoder accepts.
    static let fakeMagic = Data("FAKEIMG!".utf8)

    /// `size` bytes starting with the fake magic (the rest pseudo-random).
    static func fakeImageBytes(_ size: Int, seed: UInt8 = 7) -> Data {
        var data = fakeMagic
        var x = UInt32(seed) &+ 1
        while data.count < size {
            x = x &* 1_664_525 &+ 1_013_904_223
            data.append(UInt8(truncatingIfNeeded: x >> 24))
        }
        return data
    }

    /// Decodes fake-magic bytes into a 1×1 image whose width encodes nothing; anything else goes
    /// to the real `ImageCoders` (so HTML is still `notAnImage`).
    static let fakeDecoding = ImageDecoding(
        decode: { data, options in
            if data.starts(with: fakeMagic) { return Image(width: 1, height: 1, pixels: [1, 2, 3, 255]) }
            return try ImageCoders.decode(data, options: options)
        },
        makeIncrementalDecoder: { _ in FakeIncrementalDecoder() })

    /// A config using the fake decoders and short timeouts.
    static func config(maxConcurrent: Int = 6, timeout: TimeInterval = 20) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.decoding = fakeDecoding
        config.maxConcurrentDownloads = maxConcurrent
        config.downloadTimeout = timeout
        return config
    }

    /// A throttled fake image response lasting about `seconds`.
    static func slowImage(size: Int = 64 * 1024, seconds: Double = 1.0) -> StubResponse {
        var response = StubResponse.ok(fakeImageBytes(size), contentType: "image/fake")
        response.bytesPerSecond = Int(Double(size) / seconds)
        return response
    }
}

/// Deterministic incremental decoder: a partial image whose width is the byte count so far
/// (capped), the final image 1×1. Counts calls to check throttling.
final class FakeIncrementalDecoder: IncrementalDecoding {
    private var bytes = 0

    func append(_ chunk: Data) { bytes += chunk.count }

    func partialImage() -> Image? {
        guard bytes > 0 else { return nil }
        let width = min(bytes, 4096)
        return Image(width: width, height: 1, pixels: [UInt8](repeating: 9, count: width * 4))
    }

    func finish() throws -> Image {
        guard bytes > 0 else { throw DecodeError.empty }
        return Image(width: 1, height: 1, pixels: [1, 2, 3, 255])
    }
}

/// Counts of this process's resources, from /proc.
enum ProcessResources {
    /// Open file descriptors.
    static var openFileDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// Threads.
    static var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    /// ESTABLISHED TCP connections from this process to 127.0.0.1:`port` (client side only).
    static func clientSockets(toPort port: UInt16) -> Int {
        let inodes = socketInodes()
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return -1 }
        let wanted = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 9 && fields[2] == wanted && fields[3] == "01" && inodes.contains(String(fields[9]))
        }.count
    }

    private static func socketInodes() -> Set<String> {
        let dir = "/proc/self/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        var inodes = Set<String>()
        for name in names {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + name),
               target.hasPrefix("socket:[") {
                inodes.insert(String(target.dropFirst(8).dropLast()))
            }
        }
        return inodes
    }
}

extension ImageDownloader {
    /// Waits (up to 30 s) until no download runs or waits: whatever a cancelled handler could still
    /// hear has been handed on by then. "Nothing after cancel" tests look then, not after a fixed sleep.
    func untilIdle() async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while currentDownloadCount > 0 || queuedDownloadCount > 0 {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
