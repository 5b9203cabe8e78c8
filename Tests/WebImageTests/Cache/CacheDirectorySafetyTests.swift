import Foundation
import Testing
import TestSupport
@testable import WebImage

/// The cache folder and every folder under it (partials) are opened without following links, must be
/// ours, and files are 0600 (issue 21: a symlinked cache dir was chmod'ed and filled; a planted
/// `partials` link received partial bodies, mode 0644).
@Suite struct CacheDirectorySafetyTests {
    static let partial = PartialDownload(data: Data(repeating: 7, count: 300), validator: "\"v\"", totalLength: 1000)

    @Test func aSymlinkedCacheFolderIsRefusedAndLeftAlone() throws {
        let root = try Fixtures.temporaryDirectory("cache-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let link = root.appendingPathComponent("cache")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: CacheError.self) { try DiskCache(config: DiskCacheConfig(directory: link)) }
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o755, "the link's target was chmod'ed")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a folder away"))
    func aFolderOwnedBySomeoneElseIsRefused() throws {
        let root = try Fixtures.temporaryDirectory("cache-foreign")
        defer { try? FileManager.default.removeItem(at: root) }
        let foreign = root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        #expect(chown(foreign.path, 65534, 65534) == 0)
        #expect(throws: CacheError.self) { try DiskCache(config: DiskCacheConfig(directory: foreign)) }
    }

    @Test func aPlantedPartialsLinkReceivesNothing() throws {
        let root = try Fixtures.temporaryDirectory("partials-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let attacker = root.appendingPathComponent("attacker")
        try FileManager.default.createDirectory(at: attacker, withIntermediateDirectories: true)
        let partials = root.appendingPathComponent("partials")
        try FileManager.default.createSymbolicLink(at: partials, withDestinationURL: attacker)
        let url = try #require(URL(string: "http://user:secret@example.com/a.jpg"))
        PartialFileStore(directory: partials, budget: 1 << 20).write(Self.partial, for: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: attacker.path).isEmpty)
    }

    @Test func partialFilesAreOwnerOnly() throws {
        let root = try Fixtures.temporaryDirectory("partials-mode")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = PartialFileStore(directory: root.appendingPathComponent("partials"), budget: 1 << 20)
        let url = try #require(URL(string: "http://example.com/a.jpg"))
        store.write(Self.partial, for: url)
        let mode = try FileManager.default.attributesOfItem(atPath: store.fileURL(for: url).path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(store.read(url)?.data == Self.partial.data)
    }
}
