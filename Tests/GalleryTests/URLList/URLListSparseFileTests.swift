import Foundation
import Testing
@testable import Gallery

/// A sparse list file (a hole made by `truncate`) is indexed by jumping its holes: a 10 GB hole
/// between two lines costs a few pages, not 2.6 million page faults of zeros.
@Suite struct URLListSparseFileTests {
    /// Pages of `path` in the page cache (`mincore` over a fresh mapping).
    static func residentPages(_ path: String) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let map = mmap(nil, Int(info.st_size), PROT_READ, MAP_SHARED, descriptor, 0), map != MAP_FAILED else { return -1 }
        defer { munmap(map, Int(info.st_size)) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: (Int(info.st_size) + pageSize - 1) / pageSize)
        guard mincore(map, Int(info.st_size), &vector) == 0 else { return -1 }
        return vector.reduce(0) { $0 + Int($1 & 1) }
    }

    @Test func aTenGigabyteHoleIsNotRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("urlsparse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sparse.txt").path
        let hole = 10 << 30
        let head = Data("https://e.example/a.jpg First\n".utf8), tail = Data("\nhttps://e.example/b.jpg Last\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: head))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(head.count + hole))  // what `truncate -s` does: a hole
        try handle.seekToEnd()
        try handle.write(contentsOf: tail)
        try handle.close()

        let clock = ContinuousClock(), started = clock.now
        let index = try URLListIndex.load(path: path)
        #expect(index.positions(containing: "b.jpg") == [2])  // the `/` filter jumps the hole too
        let elapsed = clock.now - started
        let pages = Self.residentPages(path)
        #expect(index.count == 3)
        #expect(try index.entry(at: 0).get().title == "First")
        guard case .failure(let zeros) = index.entry(at: 1) else { Issue.record("a line of zeros parsed"); return }
        #expect(zeros.line == 2 && zeros.problem == .lineTooLong(hole))
        #expect(try index.entry(at: 2).get() == URLListEntry(line: 3, location: .remote(URL(string: "https://e.example/b.jpg")!), title: "Last"))
        // A few pages at each end of the hole, plus what the kernel reads ahead around a fault
        // (2049 pages seen on ext4); reading the hole is 2.6 million.
        #expect((0...(hole >> 12) / 100).contains(pages), "\(pages) pages of the file were read")
        #expect(elapsed < .seconds(2), "indexing took \(elapsed)")
    }
}
