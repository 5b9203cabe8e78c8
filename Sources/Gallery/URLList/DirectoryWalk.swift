import Foundation
import SafeFiles

/// One walk of `imagesInDirectory`: the folders entered so far, by device and inode.
struct DirectoryWalk {
    struct FolderID: Hashable { let device: UInt64, inode: UInt64 }
    let maxFolders: Int
    private var visited: Set<FolderID> = []

    init(maxFolders: Int) { self.maxFolders = maxFolders }

    /// The folder's identity through any links, or nil when it cannot be stat'ed.
    static func identity(_ path: String) -> FolderID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    mutating func images(in directory: String, recursive: Bool) -> [String] {
        guard visited.count < maxFolders, let id = Self.identity(directory), visited.insert(id).inserted else { return [] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = [], folders: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            // Folders and regular files only: a FIFO, socket or device named like an image is skipped.
            switch SafeFile.kind(of: path) {
            case .directory?: if recursive { folders.append(name) }
            case .regular? where URLListIndex.imageExtensions.contains((name as NSString).pathExtension.lowercased()): files.append(name)
            default: continue
            }
        }
        let natural: (String, String) -> Bool = { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
        var result = files.sorted(by: natural).map { (directory as NSString).appendingPathComponent($0) }
        for folder in folders.sorted(by: natural) {
            result += images(in: (directory as NSString).appendingPathComponent(folder), recursive: true)
        }
        return result
    }
}
