import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a file named from outside is not read: the system's word ("No such file or directory",
/// "Permission denied") or what the path is instead of a regular file ("is a FIFO").
public struct FileRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, for a cell, a warning or the status line.
    public var reason: String

    /// Creates a refusal.
    public init(_ reason: String) { self.reason = reason }

    /// The system's text for `code` (an `errno`).
    public static func system(_ code: Int32) -> FileRefusal { FileRefusal(String(cString: strerror(code))) }

    /// The reason.
    public var description: String { reason }
}

/// What a path names (its `stat` mode).
public enum FileKind: Sendable, Hashable {
    case regular, directory, fifo, socket, characterDevice, blockDevice, symbolicLink, other

    /// The kind of a `st_mode`.
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// Why a file of this kind is not read as a regular file.
    public var refusal: FileRefusal {
        switch self {
        case .regular: FileRefusal("is a regular file")
        case .directory: FileRefusal("is a directory")
        case .fifo: FileRefusal("is a FIFO (named pipe), not a file")
        case .socket: FileRefusal("is a socket, not a file")
        case .characterDevice: FileRefusal("is a terminal or other device, not a file")
        case .blockDevice: FileRefusal("is a block device, not a file")
        case .symbolicLink: FileRefusal("is a symbolic link")
        case .other: FileRefusal("is not a regular file")
        }
    }
}

/// A regular file open for reading: its descriptor (blocking reads, close-on-exec) and size.
public struct OpenedFile: Sendable {
    /// The descriptor; the caller closes it.
    public let descriptor: Int32
    /// Its size in bytes when opened (`/proc` files say 0: count while reading).
    public let size: Int
    /// Its permission bits.
    public let mode: mode_t
}

/// The one way sdgallery opens a file named from outside: an image path in a list or on the command
/// line, a list file, a directory's entry, `--netrc-file`, the event log. Only regular files are
/// read, and nothing blocks at `open`: the path is looked at first (opening some devices acts), then
/// opened with `O_NONBLOCK | O_NOCTTY` (a FIFO without a writer, a terminal) and looked at again on
/// its descriptor (the path may have changed in between). A list naming `/dev/tty` made an image
/// loader read the terminal: keys were swallowed and only SIGKILL ended the program.
///
/// ```swift
/// switch SafeFile.openForReading(path) {
/// case .success(let file): defer { close(file.descriptor) }; … read(file.descriptor, …)
/// case .failure(let refusal): cell.fail(refusal.reason)      // "is a FIFO (named pipe), not a file"
/// }
/// ```
public enum SafeFile {
    /// What `path` names, following links (`lstat` with `followingLinks: false`); nil when it
    /// cannot be looked at (missing, no permission on a folder).
    public static func kind(of path: String, followingLinks: Bool = true) -> FileKind? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    /// Opens a regular file for reading. `followingLinks: false` refuses a symbolic link as the last
    /// component (`O_NOFOLLOW`).
    public static func openForReading(_ path: String, followingLinks: Bool = true) -> Result<OpenedFile, FileRefusal> {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return .failure(.system(errno)) }
        guard FileKind(mode: info.st_mode) == .regular else { return .failure(FileKind(mode: info.st_mode).refusal) }
        return openChecked(path, flags: O_RDONLY | (followingLinks ? 0 : O_NOFOLLOW), kinds: [.regular]).map {
            OpenedFile(descriptor: $0.descriptor, size: $0.size, mode: $0.mode)
        }
    }

    /// Opens a FIFO or a regular file to read as a stream (a list given as `<(command)` or a named
    /// pipe): without blocking at open, then with blocking reads. A FIFO that has no writer reads as
    /// empty. Terminals, sockets and devices are refused.
    public static func openStream(_ path: String) -> Result<OpenedFile, FileRefusal> {
        guard let kind = kind(of: path) else { return .failure(.system(errno)) }
        guard kind == .fifo || kind == .regular else { return .failure(kind.refusal) }
        return openChecked(path, flags: O_RDONLY, kinds: [.fifo, .regular])
    }

    /// Reads the rest of `descriptor`, at most `limit` bytes (counted while reading).
    public static func read(_ descriptor: Int32, limit: Int) -> Result<Data, FileRefusal> {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if count == 0 { return .success(data) }
            data.append(contentsOf: chunk[..<count])
            if data.count > limit { return .failure(FileRefusal("file too large (over \(limit >> 20) MB)")) }
        }
    }

    /// Reads a whole regular file of at most `limit` bytes.
    public static func contents(of path: String, limit: Int, followingLinks: Bool = true) -> Result<Data, FileRefusal> {
        openForReading(path, followingLinks: followingLinks).flatMap { file in
            defer { close(file.descriptor) }
            return read(file.descriptor, limit: limit)
        }
    }

    /// Opens (creating with `mode`) a regular file to append to, never through a symbolic link
    /// (`O_NOFOLLOW`) and never blocking at open (a FIFO without a reader is refused).
    public static func openForAppending(_ path: String, mode: mode_t = 0o600) -> Result<Int32, FileRefusal> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, mode)
        guard descriptor >= 0 else {
            return .failure(errno == ELOOP ? FileKind.symbolicLink.refusal : errno == ENXIO ? FileKind.fifo.refusal : .system(errno))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileKind(mode: info.st_mode) == .regular else {
            let refusal = FileKind(mode: info.st_mode).refusal
            close(descriptor)
            return .failure(refusal)
        }
        _ = fcntl(descriptor, F_SETFL, O_WRONLY | O_APPEND)
        return .success(descriptor)
    }

    /// Opens `path` with `flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC`, checks its kind on the
    /// descriptor, then makes reads blocking again.
    private static func openChecked(_ path: String, flags: Int32, kinds: Set<FileKind>) -> Result<OpenedFile, FileRefusal> {
        let descriptor = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(errno == ELOOP ? FileKind.symbolicLink.refusal : .system(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            return .failure(.system(code))
        }
        let kind = FileKind(mode: info.st_mode)
        guard kinds.contains(kind) else {
            close(descriptor)
            return .failure(kind.refusal)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(OpenedFile(descriptor: descriptor, size: Int(info.st_size), mode: info.st_mode & 0o7777))
    }
}
