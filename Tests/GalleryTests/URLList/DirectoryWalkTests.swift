import Foundation
import Locking
import Testing
import TestSupport
@testable import Gallery
import ImageCodecs

/// `-r` over symlinked folders (issue 21): every folder is entered once, by (device, inode), and a walk
/// is capped in folders.
@Suite struct DirectoryWalkTests {
    /// The walk on a thread of its own, nil when it has not finished within `seconds` (the walk
    /// before the loop check never finished over two self-links).
    static func walk(_ path: String, maxFolders: Int = 10_000, seconds: Double = 20) -> [String]? {
        let result = Locked<[String]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let images = URLListIndex.imagesInDirectory(path, recursive: true, maxFolders: maxFolders)
            result.withLock { $0 = images }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.withLock { $0 }
    }

    static func folder(links: [String: String]) throws -> URL {
        let dir = try Fixtures.temporaryDirectory("walk")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: dir.appendingPathComponent("a.jpg"))
        for (name, target) in links { try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent(name).path, withDestinationPath: target) }
        return dir
    }

    /// Every format a coder decodes is taken from a folder by its extensions (the walk took only
    /// JPEG, PNG, GIF and WebP names), and an SVG file named on the command line is an image, told
    /// by its first 512 bytes (16 were not enough past an XML declaration: it was read as a list).
    @Test func aFolderOfEveryFormatListsEachAndAnSVGArgumentIsAnImage() throws {
        let dir = try Fixtures.temporaryDirectory("formats")
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["a.avif", "b.heic", "c.jxl", "d.svg", "e.tif", "f.tiff", "g.bmp", "h.ico", "i.jpeg", "notes.txt"]
        for name in names { try Data("x".utf8).write(to: dir.appendingPathComponent(name)) }
        let listed = Self.walk(dir.path)?.map { ($0 as NSString).lastPathComponent }
        let decodedHere = Set(ImageCoderRegistry.coders.flatMap(\.fileExtensions))
        #expect(listed == names.filter { decodedHere.contains(($0 as NSString).pathExtension) })
        #expect(["avif", "heic", "tif", "tiff", "bmp", "ico"].allSatisfy(decodedHere.contains))
        let svg = dir.appendingPathComponent("logo.svg")
        try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>".utf8).write(to: svg)
        #expect(URLListIndex.kind(of: svg.path, cwd: dir) == .image(svg.path))
        // Binary bytes that are no image are not read as a list of garbage URLs.
        let binary = dir.appendingPathComponent("archive.zip")
        try Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x9C, 0xFE, 0x01, 0x02, 0x80, 0x81]).write(to: binary)
        #expect(URLListIndex.kind(of: binary.path, cwd: dir) == .missing("not an image or a list of URLs"))
        #expect(URLListIndex.kind(of: dir.appendingPathComponent("notes.txt").path, cwd: dir) == .list)
    }

    @Test func oneSelfLinkListsTheImageOnce() throws {
        let dir = try Self.folder(links: ["self": "."])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Self.walk(dir.path) == [dir.appendingPathComponent("a.jpg").path])
    }

    @Test func twoSelfLinksFinishAndListTheImageOnce() throws {
        let dir = try Self.folder(links: ["l1": ".", "l2": "."])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Self.walk(dir.path) == [dir.appendingPathComponent("a.jpg").path])
    }

    @Test func aLinkToTheRootIsBoundedByTheFolderCap() throws {
        let dir = try Self.folder(links: ["root": "/"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let images = Self.walk(dir.path, maxFolders: 30)
        #expect(images?.first == dir.appendingPathComponent("a.jpg").path)
    }

    @Test func aLinkToAnAncestorIsNotFollowedBack() throws {
        let dir = try Self.folder(links: [:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: sub.appendingPathComponent("b.jpg"))
        try FileManager.default.createSymbolicLink(atPath: sub.appendingPathComponent("up").path, withDestinationPath: "..")
        #expect(Self.walk(dir.path) == [dir.appendingPathComponent("a.jpg").path, sub.appendingPathComponent("b.jpg").path])
    }
}
