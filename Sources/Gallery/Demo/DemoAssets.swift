import Foundation

/// Finds the bundled demo images (`assets/demo/`) next to the working directory or the executable.
public enum DemoAssets {
    /// File extensions of demo images.
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]

    /// The demo folder, if found.
    public static func directory() -> URL? {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("assets/demo")]
        var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("assets/demo"))
            candidates.append(dir.appendingPathComponent("share/sdgallery/demo"))
            dir.deleteLastPathComponent()
        }
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
