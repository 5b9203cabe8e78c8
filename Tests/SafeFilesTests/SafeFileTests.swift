import Foundation
import Testing
@testable import SafeFiles
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30: a list naming `/dev/tty`, `/dev/stdin` or a FIFO made a loader block at `open` or read
/// the terminal. Only regular files are read, and nothing blocks at open: each call here returns
/// at once (a blocking open of a FIFO without a writer would hang the test until its time limit).
@Suite(.timeLimit(.minutes(1))) struct SafeFileTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "sdg-safefile-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aRegularFileIsReadWithinItsLimit() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir + "/a.txt"))
        #expect(try SafeFile.contents(of: dir + "/a.txt", limit: 10).get() == Data("hello".utf8))
        #expect(throws: FileRefusal.self) { try SafeFile.contents(of: dir + "/a.txt", limit: 3).get() }
        let file = try SafeFile.openForReading(dir + "/a.txt").get()
        defer { close(file.descriptor) }
        #expect(file.size == 5 && fcntl(file.descriptor, F_GETFL) & O_NONBLOCK == 0)
        #expect(SafeFile.openForReading(dir + "/missing") == .failure(.system(ENOENT)))
    }

    @Test func aFIFOWithoutAWriterIsRefusedWithoutBlocking() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(SafeFile.kind(of: fifo) == .fifo)
        #expect(SafeFile.openForReading(fifo) == .failure(FileKind.fifo.refusal))
        #expect(SafeFile.contents(of: fifo, limit: 1 << 20) == .failure(FileKind.fifo.refusal))
        // As a stream it opens at once; with no writer it reads as empty.
        let stream = try SafeFile.openStream(fifo).get()
        defer { close(stream.descriptor) }
        #expect(try SafeFile.read(stream.descriptor, limit: 100).get().isEmpty)
        // The event log is never opened through a FIFO (a write-only open blocked until a reader came).
        #expect(SafeFile.openForAppending(fifo) == .failure(FileKind.fifo.refusal))
    }

    @Test func devicesSocketsAndDirectoriesAreNeverOpened() throws {
        #expect(SafeFile.openForReading("/dev/null") == .failure(FileKind.characterDevice.refusal))
        #expect(SafeFile.openForReading("/dev/tty").isFailure)  // a device, or no terminal at all
        #expect(SafeFile.openStream("/dev/zero") == .failure(FileKind.characterDevice.refusal))
        #expect(SafeFile.openForReading("/tmp") == .failure(FileKind.directory.refusal))
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        #expect(SafeFile.openForReading(path) == .failure(FileKind.socket.refusal))
    }

    @Test func theEventLogIsNeverFollowedThroughALink() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/log", withDestinationPath: dir + "/target")
        #expect(SafeFile.openForAppending(dir + "/log") == .failure(FileKind.symbolicLink.refusal))
        #expect(!FileManager.default.fileExists(atPath: dir + "/target"))
        let fd = try SafeFile.openForAppending(dir + "/own.log").get()
        close(fd)
        #expect(SafeFile.kind(of: dir + "/own.log") == .regular)
        // Reading without following a link, too.
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/real"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: dir + "/real")
        #expect(SafeFile.openForReading(dir + "/link", followingLinks: false) == .failure(FileKind.symbolicLink.refusal))
        #expect(SafeFile.contents(of: dir + "/link", limit: 10) == .success(Data("x".utf8)))
    }
}

extension Result where Failure == FileRefusal {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}

extension OpenedFile: Equatable {
    public static func == (a: OpenedFile, b: OpenedFile) -> Bool { a.descriptor == b.descriptor && a.size == b.size }
}
