import Foundation

/// Why a list could not be read at all.
public struct URLListLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path given (or "-" for standard input), sanitized.
    public var path: String
    /// What the system said ("No such file or directory", "is a directory", "larger than 64 MB").
    public var reason: String

    /// Creates an error; both strings are sanitized.
    public init(path: String, reason: String) {
        self.path = TerminalText.sanitize(path)
        self.reason = TerminalText.sanitize(reason)
    }

    /// "cannot read 'urls.txt': No such file or directory".
    public var description: String { "cannot read '\(path)': \(reason)" }
}

extension URLList {
    /// Reads and parses a list file, or standard input when `path` is "-". Relative paths in the list
    /// resolve against the list file's folder (the working directory for standard input).
    public static func load(path: String, readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() }) throws(URLListLoadError) -> URLList {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        if path == "-" {
            let data = readStandardInput()
            guard data.count <= maximumListSize else { throw URLListLoadError(path: path, reason: "larger than \(maximumListSize >> 20) MB") }
            return parse(String(decoding: data, as: UTF8.self), baseDirectory: cwd)
        }
        let fileURL = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory) else {
            throw URLListLoadError(path: path, reason: "No such file or directory")
        }
        if isDirectory.boolValue { throw URLListLoadError(path: path, reason: "is a directory") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path)
        if let size = attributes?[.size] as? Int, size > maximumListSize {
            throw URLListLoadError(path: path, reason: "larger than \(maximumListSize >> 20) MB")
        }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: fileURL.path) ? "read error" : "Permission denied"
            throw URLListLoadError(path: path, reason: reason)
        }
        return parse(String(decoding: data, as: UTF8.self), baseDirectory: fileURL.deletingLastPathComponent())
    }
}
