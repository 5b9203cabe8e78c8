import Foundation
import ImageCodecs
import SafeFiles

extension URLListIndex {
    /// The list for the command line's arguments, like timg's: each may be an image file, a
    /// directory (its images in natural order — `img2` before `img10`; subdirectories too with
    /// `recursive`), an http(s) or file URL, a list file (a file that is not an image, recognised by
    /// its first bytes; relative paths in it resolve against its folder) or `-` (a list on standard
    /// input). Mixed freely, in order. One list file or `-` alone is mapped as it is (no copy, any
    /// size). An argument that cannot be used is reported through `warn` naming it, and the rest
    /// still show; only when nothing is left does it throw.
    public static func load(arguments: [String], recursive: Bool = false, warn: (String) -> Void,
                            readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) throws(URLListLoadError) -> URLListIndex {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if arguments.count == 1, let only = arguments.first {
            switch only == "-" ? .list : kind(of: only, cwd: cwd) {
            case .list, .missing: return try load(path: only, readStandardInput: readStandardInput)
            default: break
            }
        }
        var entries: [URLListEntry] = []
        for argument in arguments {
            let name = TerminalText.sanitize(argument)
            switch argument == "-" ? .list : kind(of: argument, cwd: cwd) {
            case .url:
                switch URLList.parseLocation(argument, baseDirectory: cwd, home: nil) {
                case .success(let location): entries.append(URLListEntry(line: entries.count + 1, location: location))
                case .failure(let problem): warn("\(name): \(problem)")
                }
            case .image(let path):
                entries.append(URLListEntry(line: entries.count + 1, location: .file(path: path)))
            case .directory(let path):
                let images = imagesInDirectory(path, recursive: recursive)
                if images.isEmpty { warn("\(name): no images in this directory\(recursive ? "" : " (-r descends into subdirectories)")") }
                for image in images { entries.append(URLListEntry(line: entries.count + 1, location: .file(path: image))) }
            case .list:
                do {
                    let list = try load(path: argument, readStandardInput: readStandardInput).parsedList
                    for diagnostic in list.diagnostics.prefix(5) { warn("\(name): \(diagnostic.description)") }
                    for entry in list.entries {
                        entries.append(URLListEntry(line: entries.count + 1, location: entry.location, title: entry.title))
                    }
                } catch {
                    warn(error.description)
                }
            case .missing(let reason):
                warn("\(name): \(reason)")
            }
        }
        guard !entries.isEmpty else {
            throw URLListLoadError(path: arguments.joined(separator: " "), reason: "no images in the arguments")
        }
        return URLListIndex(entries: entries)
    }

    /// What an argument names.
    enum ArgumentKind: Equatable {
        case url, image(String), directory(String), list, missing(String)
    }

    static func kind(of argument: String, cwd: URL) -> ArgumentKind {
        if URLList.schemePrefix(of: argument) != nil { return .url }
        let path = URL(fileURLWithPath: argument, relativeTo: cwd).standardizedFileURL.path
        switch SafeFile.kind(of: path) {
        case nil: return .missing(String(cString: strerror(errno)))
        case .directory: return .directory(path)
        case .fifo: return .list  // `<(command)` or a named pipe: a list read as it arrives
        case .regular: break
        case let other?: return .missing(other.refusal.reason)  // /dev/tty, a socket: never opened
        }
        guard case .success(let file) = SafeFile.openForReading(path) else { return .missing("cannot be read") }
        let handle = FileHandle(fileDescriptor: file.descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        switch ImageFormat.sniff(head) {
        case .text, .html: return .list
        // Binary and no image: read as a list, a PDF's bytes became lines of garbage URLs.
        case .unknown: return head.isEmpty ? .list : .missing("not an image or a list of URLs")
        // An image (its cell says so when this build cannot decode its format).
        default: return .image(path)
        }
    }

    /// File extensions taken from directories (a directory's files are not each opened to sniff).
    static let imageExtensions: Set<String> = ImageCoderRegistry.fileExtensions

    /// The images of `directory` (by extension), natural order, subdirectories after the files of
    /// their parent when `recursive`. Hidden entries are skipped. Every folder is entered once, by
    /// (device, inode), whatever links lead to it again (a link to itself or to an ancestor), and a
    /// walk stops after `maxFolders` folders (a link to `/` would otherwise walk the whole system).
    static func imagesInDirectory(_ directory: String, recursive: Bool, maxFolders: Int = 10_000) -> [String] {
        var walk = DirectoryWalk(maxFolders: maxFolders)
        return walk.images(in: directory, recursive: recursive)
    }
}
