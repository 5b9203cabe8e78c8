import Foundation
import SafeFiles

/// Why a list could not be read at all.
public struct URLListLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path given (or "-" for standard input), sanitized.
    public var path: String
    /// What the system said ("No such file or directory", "is a directory").
    public var reason: String

    /// Creates an error; both strings are sanitized.
    public init(path: String, reason: String) {
        self.path = TerminalText.sanitize(path)
        self.reason = TerminalText.sanitize(reason)
    }

    /// "cannot read 'urls.txt': No such file or directory".
    public var description: String { "cannot read '\(path)': \(reason)" }
}

extension URLListIndex {
    /// Maps and indexes a list file, or reads standard input into one buffer when `path` is "-".
    /// Relative paths in the list resolve against the list file's folder (the working directory
    /// for standard input). No size cap: the index costs 12 bytes a line and the map is given back
    /// to the page cache behind the index pass.
    public static func load(path: String, readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) throws(URLListLoadError) -> URLListIndex {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if path == "-" { return URLListIndex(bytes: readStandardInput(), baseDirectory: cwd) }
        let fileURL = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
        let folder = fileURL.deletingLastPathComponent()
        // A FIFO (`<(command)`, a named pipe) is read as standard input is (relative paths against
        // the working directory: `<(command)` is /dev/fd/63); /dev/tty, a socket or a
        // device is refused without being opened (`SafeFile`).
        if SafeFile.kind(of: fileURL.path) == .fifo {
            switch SafeFile.openStream(fileURL.path) {
            case .success(let stream):
                defer { close(stream.descriptor) }
                return URLListIndex(bytes: FileHandle(fileDescriptor: stream.descriptor).readDataToEndOfFile(), baseDirectory: cwd)
            case .failure(let refusal): throw URLListLoadError(path: path, reason: refusal.reason)
            }
        }
        let file: OpenedFile
        switch SafeFile.openForReading(fileURL.path) {
        case .success(let opened): file = opened
        case .failure(let refusal): throw URLListLoadError(path: path, reason: refusal.reason)
        }
        let descriptor = file.descriptor
        defer { close(descriptor) }
        let size = file.size
        guard size > 0 else { return URLListIndex(bytes: Data(), baseDirectory: folder) }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw URLListLoadError(path: path, reason: String(cString: strerror(errno)))
        }
        let bytes = Data(bytesNoCopy: mapped, count: size, deallocator: .custom { pointer, count in _ = munmap(pointer, count) })
        // Pages the pass has read are dropped from this process's memory (the page cache keeps
        // them; a later `entry(at:)` faults its page back in); holes of a sparse file are jumped.
        let pages = MappedPages(base: mapped, count: size)
        var index = URLListIndex(bytes: bytes, baseDirectory: folder, home: ProcessInfo.processInfo.environment["HOME"], firstLine: 1,
                                 releasingPagesBehind: { upTo in pages.release(0..<upTo) }, extents: FileExtents(descriptor: descriptor, size: size))
        index.mappedPages = pages
        return index
    }
}
