import Foundation
import Testing
import TestSupport
@testable import Gallery

/// Runs curl on its own thread (never blocking the cooperative pool the server needs).
func curl(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do { continuation.resume(returning: try EndToEnd.run("/usr/bin/curl", arguments, timeout: 20)) }
            catch { continuation.resume(throwing: error) }
        }.start()
    }
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs /usr/bin/curl"))
struct DemoServerTests {
    @Test func servesOnlyTheFolderImagesThrottledWithValidators() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-demo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Data((0..<24_000).map { UInt8($0 % 251) })
        try body.write(to: dir.appendingPathComponent("a photo.jpg"))
        try Data("secret".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let server = try await DemoServer.start(directory: dir, bytesPerSecond: 60_000)
        #expect(server.names == ["a photo.jpg"] && server.bytesPerSecond == 60_000)
        #expect(server.list.entries.map(\.location.url.absoluteString) == ["http://127.0.0.1:\(server.port)/demo/a%20photo.jpg"])

        let out = dir.appendingPathComponent("out.bin")
        let url = server.url(of: "a photo.jpg").absoluteString
        let get = try await curl(["-s", "-D", "-", "-o", out.path, "-w", "%{http_code} %{time_total}", url])
        #expect(get.out.contains("200 "))
        #expect(get.out.lowercased().contains("content-type: image/jpeg"))
        #expect(try Data(contentsOf: out) == body)
        let seconds = Double(get.out.split(separator: " ").last ?? "0") ?? 0
        #expect(seconds >= 0.3, "24 000 bytes at 60 000 B/s took only \(seconds) s")
        let etag = get.out.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5).trimmingCharacters(in: .whitespaces) ?? ""
        #expect(!etag.isEmpty)

        let conditional = try await curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: \(etag)", url])
        #expect(conditional.out == "304")
        for path in ["/demo/notes.txt", "/demo/..%2Fnotes.txt", "/demo/../a%20photo.jpg", "/other", "/demo/"] {
            let missing = try await curl(["-s", "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)\(path)"])
            #expect(missing.out == "404", "\(path) → \(missing.out)")
        }
        await server.stop()
    }

    /// Byte ranges for resumed downloads: `Range` with a current `If-Range` → 206 and the rest;
    /// with a stale one → the whole 200.
    @Test func honoursRangeWhileIfRangeMatches() async throws {
        let dir = try Fixtures.temporaryDirectory("gallery-demo-range")
        defer { try? FileManager.default.removeItem(at: dir) }
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        try body.write(to: dir.appendingPathComponent("r.jpg"))
        let server = try await DemoServer.start(directory: dir, bytesPerSecond: 0)
        #expect(server.bytesPerSecond == 0)  // unthrottled, not clamped to 1 KB/s (10 s for this body)
        let url = server.url(of: "r.jpg").absoluteString
        let head = try await curl(["-s", "-I", url])
        let etag = head.out.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5).trimmingCharacters(in: .whitespaces) ?? ""
        let out = dir.appendingPathComponent("out.bin")

        let rest = try await curl(["-s", "-D", "-", "-o", out.path, "-H", "Range: bytes=4000-", "-H", "If-Range: \(etag)", url])
        #expect(rest.out.hasPrefix("HTTP/1.1 206"))
        #expect(rest.out.lowercased().contains("content-range: bytes 4000-9999/10000"))
        #expect(try Data(contentsOf: out) == body.subdata(in: 4000..<10_000))

        let stale = try await curl(["-s", "-o", out.path, "-w", "%{http_code}", "-H", "Range: bytes=4000-", "-H", "If-Range: \"old\"", url])
        #expect(stale.out == "200")
        #expect(try Data(contentsOf: out) == body)
        await server.stop()
    }
}
