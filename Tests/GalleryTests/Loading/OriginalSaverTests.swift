import Foundation
import Testing
import TestSupport
import WebImage
@testable import Gallery

/// `s` on local files (issue 21): the checks of a load, made by the local-file loader (size cap,
/// regular file, an image format), and an owner-only copy of a file others may not read.
@Suite struct OriginalSaverTests {
    /// Saves `path` into a fresh folder; the status line and the folder's files.
    static func save(_ path: String) async throws -> (line: String, saved: [URL]) {
        let dir = try Fixtures.temporaryDirectory("saver")
        var config = ImageCacheConfig()
        config.shouldUseDiskCache = false
        let saver = OriginalSaver(manager: ImageManager(cache: ImageCache(config: config)), directory: dir)
        let line = await withCheckedContinuation { continuation in
            saver.save(.file(path: path)) { continuation.resume(returning: $0) }
        }
        let saved = try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
        return (line, saved)
    }

    @Test func theEnvironmentIsNotAnImageAndIsNotSaved() async throws {
        let (line, saved) = try await Self.save("/proc/self/environ")
        #expect(line.contains("not an image"), "\(line)")
        #expect(saved.isEmpty)
    }

    @Test func aHugeSparseFileIsRefusedWithoutReadingIt() async throws {
        let dir = try Fixtures.temporaryDirectory("saver-sparse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.jpg").path
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        _ = write(fd, [0xFF, 0xD8, 0xFF, 0xE0], 4)
        #expect(ftruncate(fd, 3 << 30) == 0)
        close(fd)
        let (line, saved) = try await Self.save(path)
        #expect(line.contains("too large"), "\(line)")
        #expect(saved.isEmpty)
    }

    /// The local-file loader is the one place that decides whether a file is read: what it says to a
    /// cell's load is what `s` says on the status line.
    @Test(arguments: ["fifo", "missing"])
    func aFileTheLoaderRefusesIsNotSavedAndTheStatusLineGivesTheLoadersError(kind: String) async throws {
        let dir = try Fixtures.temporaryDirectory("saver-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("refused.png").path
        if kind == "fifo" { #expect(mkfifo(path, 0o600) == 0) }
        let manager = ImageManager(cache: ImageCache(config: { var c = ImageCacheConfig(); c.shouldUseDiskCache = false; return c }()))
        let loadError = await withCheckedContinuation { (continuation: CheckedContinuation<ImageLoadError?, Never>) in
            manager.loadImage(with: ImageRequest(url: URL(fileURLWithPath: path))) { event in
                switch event {
                case .progress, .preview, .revalidating: return
                case .keptCached, .finished(.success): continuation.resume(returning: nil)
                case .finished(.failure(let error)): continuation.resume(returning: error)
                }
            }
        }
        let reason = try #require(loadError?.shortDescription)
        #expect(reason == (kind == "fifo" ? "is a FIFO (named pipe), not a file" : "file not found"))
        let (line, saved) = try await Self.save(path)
        #expect(line == "cannot save \(path): \(reason)")
        #expect(saved.isEmpty)
    }

    @Test(arguments: [(mode_t(0o600), mode_t(0o600)), (mode_t(0o644), mode_t(0o644))])
    func theCopyIsOwnerOnlyWhenTheFileIsNotReadableByEveryone(source: mode_t, copy: mode_t) async throws {
        let dir = try Fixtures.temporaryDirectory("saver-mode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("private.png")
        try TestPNG.solid(width: 4, height: 4, rgba: (1, 2, 3, 255)).write(to: file)
        chmod(file.path, source)
        let (line, saved) = try await Self.save(file.path)
        #expect(line.hasPrefix("saved private.png"), "\(line)")
        var info = stat()
        #expect(saved.count == 1 && stat(saved[0].path, &info) == 0)
        #expect(info.st_mode & 0o777 == copy)
    }
}
