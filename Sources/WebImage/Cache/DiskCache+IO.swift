import Foundation
import Zlib
#if canImport(Glibc)
import Glibc
#endif

extension DiskCache {
    /// The outcome of reading one candidate file.
    enum ReadOutcome {
        /// No such file: try the next candidate.
        case absent
        /// The file was there but cannot be served (expired, corrupt, other key): stop, it is a miss.
        case miss
        /// A valid entry.
        case hit(DiskCacheEntry)
    }

    /// Opens (creating it 0700 if needed, and its missing parents) a folder of the cache or under it,
    /// without following a symbolic link at its last component (`O_NOFOLLOW`: a planted link is
    /// refused, never chmod'ed or filled), and accepts it only when it is owned by this user; a folder
    /// of ours others may write to is set to 0700 through its descriptor (`fchmod`).
    static func prepareDirectory(_ path: String) throws(CacheError) {
        var fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw .directoryUnavailable(path: path, reason: "cannot create parent: \(error.localizedDescription)")
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .directoryUnavailable(path: path, reason: POSIXFile.reason(errno))
            }
            fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else {
            let code = errno
            var link = stat()
            if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK {
                throw .directoryUnavailable(path: path, reason: "a symbolic link (refused)")
            }
            throw .directoryUnavailable(path: path, reason: code == ENOTDIR ? "not a directory" : POSIXFile.reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .directoryUnavailable(path: path, reason: POSIXFile.reason(errno)) }
        guard info.st_uid == geteuid() else {
            throw .directoryUnavailable(path: path, reason: "owned by another user (uid \(info.st_uid))")
        }
        if info.st_mode & 0o777 != 0o700, fchmod(fd, 0o700) != 0 {
            throw .directoryUnavailable(path: path, reason: "chmod 0700: " + POSIXFile.reason(errno))
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else {
            throw .directoryUnavailable(path: path, reason: POSIXFile.reason(errno))
        }
        try checkParents(of: path)
    }

    /// Every folder above the cache, to the root, as OpenSSH checks the folders above a key file: owned
    /// by root or this user, and writable by nobody else unless sticky (`/tmp`: others cannot rename
    /// or delete what is ours there). Otherwise another user could swap the cache's folder, or one
    /// above it, for another while the gallery runs.
    static func checkParents(of path: String) throws(CacheError) {
        let parent = (path as NSString).deletingLastPathComponent
        guard let resolved = realpath(parent.isEmpty ? "." : parent, nil) else {
            throw .directoryUnavailable(path: path, reason: "its folder: " + POSIXFile.reason(errno))
        }
        var folder = String(cString: resolved)
        free(resolved)
        let me = geteuid()
        while true {
            var info = stat()
            guard lstat(folder, &info) == 0 else { throw .directoryUnavailable(path: path, reason: "\(folder): " + POSIXFile.reason(errno)) }
            let writableByOthers = info.st_mode & 0o022 != 0 && info.st_mode & UInt32(S_ISVTX) == 0
            if (info.st_uid != 0 && info.st_uid != me) || writableByOthers {
                let mode = String(info.st_mode & 0o7777, radix: 8)
                throw .directoryUnavailable(path: path, reason: "\(folder) can be changed by another user (uid \(info.st_uid), mode \(mode))")
            }
            if folder == "/" || folder.isEmpty { return }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// Reads and checks one file. Corrupt or misplaced files are removed (and reported by the reader
    /// whose unlink succeeds: once); expired ones are removed silently.
    func read(name: String, key: String, now: Date) -> ReadOutcome {
        let file = path + "/" + name
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .absent }
        defer { close(fd) }
        guard let st = POSIXFile.status(fd: fd) else { return .absent }
        if now.timeIntervalSince(st.modified) > config.maxAge {
            if POSIXFile.unlinkIfSame(path: file, as: st) { index.withLock { $0.record(name, size: nil) } }
            return .miss
        }
        do {
            let entry = try parse(fd: fd, file: file, status: st)
            guard entry.key == key else { throw DiskEntryFormat.Invalid(reason: "holds another key") }
            POSIXFile.setTimes(fd, now)
            return .hit(entry)
        } catch let invalid as DiskEntryFormat.Invalid {
            if POSIXFile.unlinkIfSame(path: file, as: st) {
                index.withLock { $0.record(name, size: nil) }
                report(.error(.corruptEntry(file: name, reason: invalid.reason)))
            }
            return .miss
        } catch {
            // An I/O error while reading (EIO…): a miss, reported, file left for the next sweep.
            report(.error(error as? CacheError ?? .io(operation: "read", path: file, reason: "\(error)")))
            return .miss
        }
    }

    /// The validators and freshness of `key`'s entry, read from its header and metadata only (the
    /// body, and so the checksum, is not read: the body is checked whenever it is read). Nil on a
    /// miss or an unreadable header. For the decoded-thumbnail tier, which follows its original.
    func metadata(forKey key: String) -> ResponseMetadata? {
        let now = config.clock()
        for name in candidateNames(forKey: key) {
            let file = path + "/" + name
            let fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard let st = POSIXFile.status(fd: fd), now.timeIntervalSince(st.modified) <= config.maxAge else { return nil }
            var header = [UInt8](repeating: 0, count: DiskEntryFormat.headerSize)
            guard (try? header.withUnsafeMutableBytes({ try POSIXFile.readExactly(fd, into: $0, at: 0, path: file) })) == true,
                  let (metaLength, _, _, version) = try? DiskEntryFormat.parseHeader(header, fileSize: st.size) else { return nil }
            var meta = [UInt8](repeating: 0, count: metaLength)
            guard (try? meta.withUnsafeMutableBytes({ try POSIXFile.readExactly(fd, into: $0, at: DiskEntryFormat.headerSize, path: file) })) == true,
                  let m = try? DiskEntryFormat.parseMetadata(meta, version: version), m.key == key else { return nil }
            return ResponseMetadata(validators: m.validators, freshness: m.freshness)
        }
        return nil
    }

    /// Parses the open entry file `fd` of known status.
    private func parse(fd: Int32, file: String, status st: FileStatus) throws -> DiskCacheEntry {
        var header = [UInt8](repeating: 0, count: DiskEntryFormat.headerSize)
        guard try header.withUnsafeMutableBytes({ try POSIXFile.readExactly(fd, into: $0, at: 0, path: file) }) else {
            throw DiskEntryFormat.Invalid(reason: "shorter than its header")
        }
        let (metaLength, crc, dataLength, version) = try DiskEntryFormat.parseHeader(header, fileSize: st.size)
        var meta = [UInt8](repeating: 0, count: metaLength)
        var data = Data(count: dataLength)
        let complete = try meta.withUnsafeMutableBytes { try POSIXFile.readExactly(fd, into: $0, at: DiskEntryFormat.headerSize, path: file) }
            && data.withUnsafeMutableBytes { try POSIXFile.readExactly(fd, into: $0, at: DiskEntryFormat.headerSize + metaLength, path: file) }
        guard complete else { throw DiskEntryFormat.Invalid(reason: "truncated while reading") }
        var actual = meta.withUnsafeBytes { Zlib.crc32(0, $0) }
        actual = data.withUnsafeBytes { Zlib.crc32(actual, $0) }
        guard actual == crc else { throw DiskEntryFormat.Invalid(reason: "checksum mismatch") }
        let m = try DiskEntryFormat.parseMetadata(meta, version: version)
        return DiskCacheEntry(key: m.key, data: data, validators: m.validators, contentType: m.contentType, storedAt: m.storedAt,
                              lastAccess: st.modified, freshness: m.freshness)
    }

    /// Writes `prefix` + `data` to a flocked temp file, fsyncs it, stamps its time and renames it to
    /// `name`. Returns the file size. Never leaves a partial file under an entry name.
    func writeAtomically(name: String, prefix: [UInt8], data: Data, stamp: Date) throws(CacheError) -> Int {
        let temp = path + "/" + Self.tempPrefix + UUID().uuidString
        var fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 && errno == ENOENT {
            // The directory was removed while we ran (a user cleaning ~/.cache): make it again. The
            // index still counts the lost entries until the next sweep re-reads the directory.
            try Self.prepareDirectory(path)
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw POSIXFile.error("open", temp) }
        var renamed = false
        defer {
            if !renamed { unlink(temp) }
            close(fd)
        }
        // The lock marks a live writer: sweeps (in any process) leave a locked temp file alone, and
        // the kernel drops it when the writer dies.
        guard flock(fd, LOCK_EX) == 0 else { throw POSIXFile.error("flock", temp) }
        var code = prefix.withUnsafeBytes { POSIXFile.writeAll(fd, $0) }
        if code == 0 { code = data.withUnsafeBytes { POSIXFile.writeAll(fd, $0) } }
        if code != 0 { throw .io(operation: "write", path: temp, reason: POSIXFile.reason(code)) }
        if config.fsyncWrites && fsync(fd) != 0 { throw POSIXFile.error("fsync", temp) }
        POSIXFile.setTimes(fd, stamp)
        guard rename(temp, path + "/" + name) == 0 else { throw POSIXFile.error("rename", temp) }
        renamed = true
        return prefix.count + data.count
    }
}
