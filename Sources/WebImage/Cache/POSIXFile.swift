import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Thin POSIX helpers for the disk cache: every failure becomes a `CacheError.io` naming the call and
/// the path. Kept in one place so the cache code reads as cache logic.
enum POSIXFile {
    /// `strerror` text of `code`.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A `CacheError.io` for the current `errno`.
    static func error(_ operation: String, _ path: String) -> CacheError {
        .io(operation: operation, path: path, reason: reason(errno))
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns 0 or the `errno`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return 0 }
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }

    /// Reads exactly `count` bytes at `offset` into `buffer`; returns false if the file is shorter.
    static func readExactly(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws(CacheError) -> Bool {
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return true }
            let n = pread(fd, base + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw error("pread", path)
            }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Sets both access and modification time of an open file (the cache's "last access").
    static func setTimes(_ fd: Int32, _ date: Date) {
        var times = [timespec](repeating: timespec(date), count: 2)
        _ = futimens(fd, &times)
    }

    /// Sets both times of a path; returns false if the file is gone.
    @discardableResult
    static func setTimes(path: String, _ date: Date) -> Bool {
        var times = [timespec](repeating: timespec(date), count: 2)
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// (size, mtime, device, inode) of a path, or nil if it does not exist.
    static func status(path: String) -> FileStatus? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// (size, mtime, device, inode) of an open file.
    static func status(fd: Int32) -> FileStatus? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// Removes `path` only if it is still the file described by `expected` (another process may have
    /// replaced it with a fresh entry meanwhile). Returns whether this call removed it.
    static func unlinkIfSame(path: String, as expected: FileStatus) -> Bool {
        guard let now = status(path: path), now.device == expected.device, now.inode == expected.inode else { return false }
        return unlink(path) == 0
    }

    /// Names in a directory (no "." or ".."); empty if it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
