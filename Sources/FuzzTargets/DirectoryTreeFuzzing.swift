import Foundation
import Gallery
import SafeText

/// The `tree` target: the bytes build a small directory tree (folders, images, files with an image
/// name but not image bytes, list files, hidden entries, links to the folder itself, to its parent
/// or any other folder, dangling links) in a fresh temporary folder, then pick command-line
/// arguments for `URLListIndex.load(arguments:recursive:)`, with and without `-r`.
///
/// Byte 0 is the number of entries (at most 32), byte 1 the flags (bit 0: `-r`), then three bytes
/// per entry, then one byte per argument. At most 32 entries and 8 arguments per input, so one input costs a few milliseconds whatever
/// the links: each folder walk must list every image file at most once, inside the tree, and end.
enum DirectoryTreeFuzzing {
    /// Names the entries start with: order, case, dots, control and bidi characters, spaces.
    static let stems = ["a", "B", "img2", "img10", "sub", "..x", "é", "\u{1B}[31m", "tab\t", "sp ace", "\u{202E}gpj", "\u{7F}"]
    static let imageExtensions = ["jpg", "PNG", "gif", "webp", "jpeg"]

    struct Tree {
        var root: String
        var folders: [String]
        var imageNames = 0
        var nodes: [String] = []
    }

    static func run(_ data: Data) -> FuzzReport {
        var report = FuzzReport()
        let root = (NSTemporaryDirectory() as NSString).appendingPathComponent("sdg-fuzz-tree-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)) != nil,
              let real = resolved(root) else { return report }
        defer { try? FileManager.default.removeItem(atPath: root) }
        var bytes = [UInt8](data)[...]
        let count = Int(bytes.popFirst() ?? 0) % 33, recursive = (bytes.popFirst() ?? 0) & 1 == 1
        let tree = build(root: real, entries: count, from: &bytes)
        report.note("\(tree.nodes.count) entries, \(tree.folders.count) folders, \(tree.imageNames) image names, -r \(recursive)")
        for folder in tree.folders {
            checkWalk(of: folder, recursive: recursive, tree: tree, into: &report)
        }
        var arguments: [String] = []
        while arguments.count < 8, let pick = bytes.popFirst() {
            let choices = tree.nodes + [tree.root + "/missing", "-", "http://example.com/a.png", "file://" + tree.root]
            arguments.append(choices[Int(pick) % choices.count])
        }
        guard !arguments.isEmpty else { return report }
        var warnings: [String] = []
        let stdin = Data((tree.folders.prefix(3).map { $0 + "/a.jpg" } + ["# title", "relative.png"]).joined(separator: "\n").utf8)
        do {
            let index = try URLListIndex.load(arguments: arguments, recursive: recursive, warn: { warnings.append($0) }, readStandardInput: { stdin })
            report.note("\(arguments.count) arguments: \(index.count) entries, \(warnings.count) warnings")
            for position in 0..<index.count {
                if case .success(let entry) = index.entry(at: position) {
                    report.expect(!TextFuzzing.unsafe(entry.displayName), "entry \(position): display name \(entry.displayName.debugDescription)")
                }
            }
        } catch {
            report.expect(!TextFuzzing.unsafe(error.description), "error \(error.description.debugDescription)")
        }
        for warning in warnings { report.expect(!TextFuzzing.unsafe(warning), "warning \(warning.debugDescription)") }
        return report
    }

    /// One folder as the only argument: every entry a file inside the tree with an image name,
    /// no file twice (by its real path), children only without `-r`.
    static func checkWalk(of folder: String, recursive: Bool, tree: Tree, into report: inout FuzzReport) {
        guard let index = try? URLListIndex.load(arguments: [folder], recursive: recursive, warn: { _ in }) else { return }
        report.expect(index.count <= tree.imageNames, "\(folder): \(index.count) entries for \(tree.imageNames) image names")
        var seen: Set<String> = []
        for position in 0..<index.count {
            guard case .success(let entry) = index.entry(at: position), case .file(let path) = entry.location else {
                report.fail("\(folder): entry \(position) is not a file")
                continue
            }
            report.expect(path.hasPrefix(folder + "/"), "\(folder): \(path.debugDescription) is outside the folder")
            report.expect(recursive || !path.dropFirst(folder.count + 1).contains("/"), "\(folder): \(path.debugDescription) without -r")
            let real = resolved(path) ?? path
            report.expect(seen.insert(real).inserted, "\(folder): \(real.debugDescription) listed twice")
        }
    }

    /// Three bytes per entry (`count` of them at most): kind, the folder it goes in, its name.
    static func build(root: String, entries count: Int, from bytes: inout ArraySlice<UInt8>) -> Tree {
        var tree = Tree(root: root, folders: [root])
        let manager = FileManager.default
        for _ in 0..<count where bytes.count >= 3 {
            guard let kind = bytes.popFirst(), let parentPick = bytes.popFirst(), let namePick = bytes.popFirst() else { break }
            let parent = tree.folders[Int(parentPick) % tree.folders.count]
            let stem = stems[Int(namePick) % stems.count] + "\(tree.nodes.count)"
            let imageName = stem + "." + imageExtensions[Int(namePick) % imageExtensions.count]
            let target = tree.folders[Int(namePick) % tree.folders.count]
            var path = (parent as NSString).appendingPathComponent(stem)
            switch kind % 8 {
            case 0, 1:
                guard (try? manager.createDirectory(atPath: path, withIntermediateDirectories: false)) != nil else { continue }
                tree.folders.append(path)
            case 2:
                path = (parent as NSString).appendingPathComponent(imageName)
                guard manager.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xE0])) else { continue }
                tree.imageNames += 1
            case 3:
                path = (parent as NSString).appendingPathComponent(imageName)
                guard manager.createFile(atPath: path, contents: Data("not an image\n".utf8)) else { continue }
                tree.imageNames += 1
            case 4, 5:
                let destination = kind & 0x80 == 0 ? target : relative(from: parent, to: target)
                guard (try? manager.createSymbolicLink(atPath: path, withDestinationPath: destination)) != nil else { continue }
            case 6:
                path += ".txt"
                let lines = tree.folders.prefix(4).map { $0 + "/img2\(namePick).png" } + ["../" + imageName, "https://example.com/\(stem)"]
                guard manager.createFile(atPath: path, contents: Data(lines.joined(separator: "\n").utf8)) else { continue }
            default:
                path = (parent as NSString).appendingPathComponent(kind & 0x80 == 0 ? ".hidden\(tree.nodes.count)" : "dangling\(tree.nodes.count)")
                guard (try? manager.createSymbolicLink(atPath: path, withDestinationPath: "nowhere/\(stem)")) != nil else { continue }
            }
            tree.nodes.append(path)
        }
        return tree
    }

    /// `to` relative to the folder `from` ("..", "../..", "." or "../sub").
    static func relative(from: String, to: String) -> String {
        let a = from.split(separator: "/"), b = to.split(separator: "/")
        let common = zip(a, b).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: a.count - common) + b.dropFirst(common).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The path with every link resolved (realpath), or nil.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
